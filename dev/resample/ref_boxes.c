/* Writes the reference check_three.mjs compares a kf3ds export with
 * (tests/gltf/check_three.mjs, tests/support_boxes.h): at SUB instants per
 * frame over the file's whole segment, the box of every object node's mesh
 * as the library places it. tests/front/test_export.c writes the same with a
 * cap on the frames; this one measures every instant, for
 * dev/resample/table.sh.
 *   ref_boxes FILE.3ds SUB > REF.json */
#include <kf3ds.h>
#include <stdio.h>
#include <stdlib.h>
#include "support_boxes.h"

int main(int argc, char **argv)
{
    kf3ds_scene *s;
    double first, last, *frames;
    long k, sub, count, boxes;
    if (argc != 3 || (sub = atol(argv[2])) < 1) {
        fprintf(stderr, "usage: ref_boxes FILE.3ds SUB\n");
        return 2;
    }
    s = kf3ds_load_file(argv[1], NULL, NULL);
    if (!s) {
        fprintf(stderr, "ref_boxes: %s: cannot load\n", argv[1]);
        return 1;
    }
    first = s->segment_start;
    last = s->segment_end > s->segment_start ? s->segment_end : s->segment_start;
    count = (long)(last - first) * sub + 1;
    frames = malloc((size_t)count * sizeof *frames);
    if (!frames)
        return 1;
    for (k = 0; k < count; k++)
        frames[k] = first + (double)(k / sub) + (double)(k % sub) / (double)sub;
    boxes = support_write_boxes(stdout, s, 30.0, first, frames, (size_t)count);
    free(frames);
    kf3ds_scene_free(s);
    return boxes > 0 ? 0 : boxes < 0 ? 1 : 3;
}
