/* placeholder replaced below */
#include "cmd.h"
static int cmd_thumbnail(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return CLI_EXIT_USAGE;
}
const cli_verb cmd_thumbnail_verb = { "thumbnail", cmd_thumbnail, "thumbnail FILE OUT.png [SIZE]",
                                      "Write a thumbnail picture of the scene.", "" };
