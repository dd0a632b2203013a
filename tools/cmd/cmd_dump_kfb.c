/* .kfb files (docs/kfb.md) in `kf3ds info` and `kf3ds dump`, and the one
 * compiled copy of the reader, include/kf3ds_kfb.h, for the command. */
#include "cmd_dump.h"
#include <inttypes.h>
#include <string.h>
#define KF3DS_KFB_IMPLEMENTATION
#include "kf3ds_kfb.h"

static const char *const section_names[7] = { "nodes", "channels", "frames", "meshes",
                                              "materials", "mesh data", "strings" };

static const char *channel_name(int kind)
{
    static const char *const names[6] = { "?", "fov", "roll", "color", "hotspot", "falloff" };
    return kind >= 1 && kind <= 5 ? names[kind] : "?";
}

void cli_print_decimal(FILE *out, int64_t num, uint32_t scale)
{
    int64_t whole = num / (int64_t)scale, rest = num % (int64_t)scale;
    char digits[16];
    int n = 0;
    if (num < 0 && whole == 0)
        fputc('-', out);
    fprintf(out, "%" PRId64, whole);
    if (rest < 0)
        rest = -rest;
    if (!rest)
        return;
    for (; scale > 1 && n < 15; scale /= 10)
        digits[n++] = (char)('0' + (rest * 10 / scale) % 10);
    while (n > 0 && digits[n - 1] == '0')
        n--;
    fprintf(out, ".%.*s", n, digits);
}

/* Opens the file or prints why not ("kf3ds: FILE: offset N: what"). */
static int open_kfb(const char *file, const unsigned char *data, size_t size, kf3ds_kfb_file *f)
{
    int st = kf3ds_kfb_open(f, data, size);
    if (st == KF3DS_KFB_OK)
        return CLI_EXIT_OK;
    cli_print_error(file, "offset %lu: %s", (unsigned long)f->error_offset,
                    kf3ds_kfb_status_string(st));
    return CLI_EXIT_INPUT;
}

static int32_t frame_numerator(const kf3ds_kfb_file *f, uint32_t i)
{
    kf3ds_kfb_s32 num = 0;
    kf3ds_kfb_frame_numerator(f, i, &num);
    return num;
}

static void print_format(FILE *out, const kf3ds_kfb_file *f)
{
    if (f->flags & KF3DS_KFB_FLAG_FIXED)
        fprintf(out, "%u.%u fixed point", 32 - f->frac_bits, f->frac_bits);
    else
        fputs("float", out);
}

/* ---- info ------------------------------------------------------------------ */

int cli_kfb_info(const char *file, const unsigned char *data, size_t size)
{
    kf3ds_kfb_file f;
    FILE *out = stdout;
    uint32_t i, c, varying = 0;
    unsigned long verts = 0, faces = 0, normals = 0, uvs = 0;
    int status = open_kfb(file, data, size, &f);
    if (status)
        return status;
    fputs("file: ", out);
    cli_text_cstr(out, file);
    fprintf(out, " (%lu %s)\nkfb: version %d, ", (unsigned long)size,
            cli_plural(size, "byte", "bytes"), KF3DS_KFB_VERSION);
    print_format(out, &f);
    fputs(f.flags & KF3DS_KFB_FLAG_MESHES ? ", with meshes\n" : ", no meshes\n", out);
    fprintf(out, "frames: %lu: ", (unsigned long)f.num_frames);
    cli_print_decimal(out, f.frame_first, f.frame_scale);
    fputs("..", out);
    cli_print_decimal(out, frame_numerator(&f, f.num_frames - 1), f.frame_scale);
    fputs(" step ", out);
    cli_print_decimal(out, f.frame_step, f.frame_scale);
    fprintf(out, " (the .3ds segment %ld..%ld), %lu %s each\n", (long)f.segment_start,
            (long)f.segment_end, (unsigned long)f.frame_stride,
            cli_plural(f.frame_stride, "byte", "bytes"));
    fprintf(out, "nodes: %lu\n", (unsigned long)f.num_nodes);
    for (i = 0; i < f.num_nodes; i++) {
        kf3ds_kfb_node n;
        int depth = 0;
        kf3ds_kfb_s32 p;
        kf3ds_kfb_node_get(&f, i, &n);
        /* the depth among the baked nodes (a damaged cycle stops at 40) */
        for (p = n.parent_slot; p >= 0 && depth < 40; depth++) {
            kf3ds_kfb_node up;
            kf3ds_kfb_node_get(&f, (uint32_t)p, &up);
            p = up.parent_slot;
        }
        fprintf(out, "  %*s[%lu] %s ", 2 * depth, "", (unsigned long)n.index,
                kf3ds_kfb_node_type_name(n.type));
        cli_text_name(out, n.name.s);
        if (n.instance.s) {
            fputs(" (", out);
            cli_text_name(out, n.instance.s);
            fputc(')', out);
        }
        if (n.mesh >= 0) {
            kf3ds_kfb_mesh m;
            kf3ds_kfb_mesh_get(&f, (uint32_t)n.mesh, &m);
            fprintf(out, ": mesh %ld (%lu %s)", (long)n.mesh, (unsigned long)m.num_vertices,
                    cli_plural(m.num_vertices, "vertex", "vertices"));
        }
        for (c = 0; c < f.num_channels; c++) {
            kf3ds_kfb_channel ch;
            kf3ds_kfb_channel_get(&f, c, &ch);
            if (ch.node_slot == i)
                fprintf(out, " %s%s", channel_name(ch.kind),
                        ch.first == KF3DS_KFB_NONE ? " (constant)" : "");
        }
        fputc('\n', out);
    }
    for (c = 0; c < f.num_channels; c++) {
        kf3ds_kfb_channel ch;
        kf3ds_kfb_channel_get(&f, c, &ch);
        varying += ch.first != KF3DS_KFB_NONE;
    }
    fprintf(out, "channels: %lu (%lu varying: %lu %s per frame)\n",
            (unsigned long)f.num_channels, (unsigned long)varying,
            (unsigned long)f.num_channel_values,
            cli_plural(f.num_channel_values, "value", "values"));
    for (i = 0; i < f.num_meshes; i++) {
        kf3ds_kfb_mesh m;
        kf3ds_kfb_mesh_get(&f, i, &m);
        verts += m.num_vertices;
        faces += m.num_faces;
        normals += m.num_normals;
        uvs += m.num_uvs;
    }
    fprintf(out, "meshes: %lu (%lu %s, %lu %s, %lu %s, %lu %s)\n", (unsigned long)f.num_meshes,
            verts, cli_plural(verts, "vertex", "vertices"), faces,
            cli_plural(faces, "face", "faces"), normals, cli_plural(normals, "normal", "normals"),
            uvs, cli_plural(uvs, "texture coordinate", "texture coordinates"));
    fprintf(out, "materials: %lu\n", (unsigned long)f.num_materials);
    fputs("sections:", out);
    for (i = 0; i < 7; i++)
        fprintf(out, "%s %s %lu at 0x%lX", i ? "," : "", section_names[i],
                (unsigned long)f.section[i][1], (unsigned long)f.section[i][0]);
    fputc('\n', out);
    return CLI_EXIT_OK;
}

/* ---- dump ------------------------------------------------------------------ */

static unsigned long shown(const dumper *d, unsigned long n)
{
    return d->full || n < DUMP_FEW ? n : DUMP_FEW;
}

static void fld_string(dumper *d, const char *k, kf3ds_kfb_string s)
{
    if (s.s)
        dump_fld_str(d, k, s.s, s.len);
}

static void dump_header(dumper *d, const kf3ds_kfb_file *f)
{
    dump_region_begin(d, 0, "header", KF3DS_KFB_HEADER_SIZE, 0);
    dump_fld_str(d, "magic", (const char *)f->data, 4);
    dump_fld_uint(d, "version", KF3DS_KFB_VERSION);
    dump_fld_uint(d, "size", f->size);
    dump_fld_hex(d, "flags", f->flags, 2);
    dump_fld_flag(d, "fixed", (f->flags & KF3DS_KFB_FLAG_FIXED) != 0);
    dump_fld_flag(d, "has_meshes", (f->flags & KF3DS_KFB_FLAG_MESHES) != 0);
    dump_fld_uint(d, "frac_bits", f->frac_bits);
    dump_fld_uint(d, "nodes", f->num_nodes);
    dump_fld_uint(d, "frames", f->num_frames);
    dump_fld_int(d, "frame_first", f->frame_first);
    dump_fld_int(d, "frame_step", f->frame_step);
    dump_fld_uint(d, "frame_scale", f->frame_scale);
    dump_fld_int(d, "segment_start", f->segment_start);
    dump_fld_int(d, "segment_end", f->segment_end);
    dump_fld_uint(d, "channels", f->num_channels);
    dump_fld_uint(d, "channel_values", f->num_channel_values);
    dump_fld_uint(d, "frame_stride", f->frame_stride);
    dump_fld_uint(d, "meshes", f->num_meshes);
    dump_fld_uint(d, "materials", f->num_materials);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

static void dump_node(dumper *d, const kf3ds_kfb_file *f, uint32_t i)
{
    kf3ds_kfb_node n;
    kf3ds_kfb_node_get(f, i, &n);
    dump_region_begin(d, f->section[KF3DS_KFB_SECTION_NODES][0] + KF3DS_KFB_NODE_SIZE * i, "node",
                      KF3DS_KFB_NODE_SIZE, 1);
    dump_fld_uint(d, "slot", i);
    dump_fld_str(d, "name", n.name.s, n.name.len);
    fld_string(d, "instance", n.instance);
    dump_fld_uint(d, "index", n.index);
    dump_fld_int(d, "id", n.id);
    dump_fld_int(d, "parent", n.parent);
    dump_fld_int(d, "parent_slot", n.parent_slot);
    dump_fld_int(d, "mesh", n.mesh);
    dump_fld_str(d, "type", kf3ds_kfb_node_type_name(n.type),
                 strlen(kf3ds_kfb_node_type_name(n.type)));
    dump_fld_flag(d, "dummy", n.dummy);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

static void dump_channel(dumper *d, const kf3ds_kfb_file *f, uint32_t c)
{
    kf3ds_kfb_channel ch;
    kf3ds_kfb_channel_get(f, c, &ch);
    dump_region_begin(d, f->section[KF3DS_KFB_SECTION_CHANNELS][0] + KF3DS_KFB_CHANNEL_SIZE * c,
                      "channel", KF3DS_KFB_CHANNEL_SIZE, 1);
    dump_fld_uint(d, "node_slot", ch.node_slot);
    dump_fld_str(d, "kind", channel_name(ch.kind), strlen(channel_name(ch.kind)));
    dump_fld_uint(d, "count", ch.count);
    if (ch.first == KF3DS_KFB_NONE) {
        float v[3];
        kf3ds_kfb_channel_float(f, 0, c, v);
        dump_fld_vec(d, "constant", v, (int)ch.count);
    } else {
        dump_fld_uint(d, "first", ch.first);
    }
    dump_chunk_children(d);
    dump_chunk_end(d);
}

static void dump_frame(dumper *d, const kf3ds_kfb_file *f, uint32_t fr)
{
    uint32_t i, c;
    dump_region_begin(d, f->section[KF3DS_KFB_SECTION_FRAMES][0] + (unsigned long)f->frame_stride * fr,
                      "frame", f->frame_stride, 1);
    dump_fld_uint(d, "index", fr);
    dump_fld_float(d, "frame", (double)frame_numerator(f, fr) / f->frame_scale);
    dump_list_begin(d, "nodes");
    for (i = 0; i < f->num_nodes; i++) {
        float m[12];
        kf3ds_kfb_world_float(f, fr, i, m);
        dump_item_begin(d, "slot", i);
        dump_fld_vec(d, "world", m, 12);
        dump_fld_flag(d, "visible", kf3ds_kfb_visible(f, fr, i));
        dump_item_end(d);
    }
    dump_list_end(d, f->num_nodes, f->num_nodes);
    dump_list_begin(d, "channels");
    for (c = 0; c < f->num_channels; c++) {
        kf3ds_kfb_channel ch;
        float v[3];
        kf3ds_kfb_channel_get(f, c, &ch);
        if (ch.first == KF3DS_KFB_NONE)
            continue;
        kf3ds_kfb_channel_float(f, fr, c, v);
        dump_item_begin(d, "channel", c);
        dump_fld_vec(d, channel_name(ch.kind), v, (int)ch.count);
        dump_item_end(d);
    }
    dump_list_end(d, 0, 0);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

static void dump_mesh(dumper *d, const kf3ds_kfb_file *f, uint32_t i)
{
    kf3ds_kfb_mesh m;
    kf3ds_kfb_mesh_get(f, i, &m);
    dump_region_begin(d, f->section[KF3DS_KFB_SECTION_MESHES][0] + KF3DS_KFB_MESH_SIZE * i, "mesh",
                      KF3DS_KFB_MESH_SIZE, 1);
    dump_fld_uint(d, "index", i);
    dump_fld_str(d, "name", m.name.s, m.name.len);
    dump_fld_uint(d, "source", m.source);
    dump_fld_uint(d, "vertices", m.num_vertices);
    dump_fld_uint(d, "faces", m.num_faces);
    dump_fld_uint(d, "normals", m.num_normals);
    dump_fld_uint(d, "uvs", m.num_uvs);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

static void dump_material(dumper *d, const kf3ds_kfb_file *f, uint32_t i)
{
    kf3ds_kfb_material m;
    unsigned long a[3], df[3], sp[3];
    int k;
    kf3ds_kfb_material_get(f, i, &m);
    for (k = 0; k < 3; k++) {
        a[k] = m.ambient[k];
        df[k] = m.diffuse[k];
        sp[k] = m.specular[k];
    }
    dump_region_begin(d, f->section[KF3DS_KFB_SECTION_MATERIALS][0] + KF3DS_KFB_MATERIAL_SIZE * i,
                      "material", KF3DS_KFB_MATERIAL_SIZE, 1);
    dump_fld_uint(d, "index", i);
    dump_fld_str(d, "name", m.name.s, m.name.len);
    fld_string(d, "texture", m.texture);
    dump_fld_ints(d, "ambient", a, 3);
    dump_fld_ints(d, "diffuse", df, 3);
    dump_fld_ints(d, "specular", sp, 3);
    dump_fld_uint(d, "shininess", m.shininess);
    dump_fld_uint(d, "transparency", m.transparency);
    dump_fld_uint(d, "shading", m.shading);
    dump_fld_flag(d, "two_sided", (m.flags & KF3DS_KFB_MAT_TWO_SIDED) != 0);
    dump_fld_flag(d, "additive", (m.flags & KF3DS_KFB_MAT_ADDITIVE) != 0);
    dump_fld_flag(d, "wire", (m.flags & KF3DS_KFB_MAT_WIRE) != 0);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

/* One array of a mesh: a region with its first entries (all with --full). */
static void dump_array(dumper *d, const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m, uint32_t mesh,
                       int kind)
{
    static const char *const names[4] = { "vertices", "faces", "normals", "uvs" };
    static const unsigned elem[4] = { 12, KF3DS_KFB_FACE_SIZE, 12, 8 };
    const unsigned char *base[4] = { m->vertices, m->faces, m->normals, m->uvs };
    uint32_t count[4] = { m->num_vertices, m->num_faces, m->num_normals, m->num_uvs }, i;
    unsigned long n = shown(d, count[kind]);
    if (!count[kind])
        return;
    dump_region_begin(d, (unsigned long)(base[kind] - f->data), names[kind],
                      (unsigned long)count[kind] * elem[kind], 1);
    dump_fld_uint(d, "mesh", mesh);
    dump_fld_uint(d, "count", count[kind]);
    dump_list_begin(d, "entries");
    for (i = 0; i < n; i++) {
        float v[3];
        if (kind == 1) {
            kf3ds_kfb_face fc;
            unsigned long vi[3], ni[3];
            int k;
            kf3ds_kfb_face_get(m, i, &fc);
            for (k = 0; k < 3; k++) {
                vi[k] = fc.v[k];
                ni[k] = fc.n[k];
            }
            dump_item_begin(d, "face", i);
            dump_fld_ints(d, "v", vi, 3);
            dump_fld_int(d, "material", fc.material == 0xFFFFu ? -1L : (long)fc.material);
            dump_fld_hex(d, "flags", fc.flags, 4);
            dump_fld_hex(d, "smoothing", fc.smoothing, 8);
            dump_fld_ints(d, "normals", ni, 3);
            dump_item_end(d);
        } else if (kind == 3) {
            kf3ds_kfb_uv_float(f, m, i, v);
            dump_item_vec(d, i, v, 2);
        } else {
            if (kind == 0)
                kf3ds_kfb_vertex_float(f, m, i, v);
            else
                kf3ds_kfb_normal_float(f, m, i, v);
            dump_item_vec(d, i, v, 3);
        }
    }
    dump_list_end(d, n, count[kind]);
    dump_chunk_children(d);
    dump_chunk_end(d);
}

/* The NUL-terminated strings one after the other (the last empty ones pad
 * the section to 4 bytes). */
static void dump_strings(dumper *d, const kf3ds_kfb_file *f)
{
    const char *s = (const char *)f->data + f->section[KF3DS_KFB_SECTION_STRINGS][0];
    uint32_t size = f->section[KF3DS_KFB_SECTION_STRINGS][1], pos;
    unsigned long total = 0, i = 0, n;
    for (pos = 0; pos < size; total++) {
        const char *nul = memchr(s + pos, 0, size - pos);
        pos = nul ? (uint32_t)(nul - s) + 1 : size;
    }
    n = shown(d, total);
    dump_list_begin(d, "strings");
    for (pos = 0; pos < size && i < n; i++) {
        const char *nul = memchr(s + pos, 0, size - pos);
        size_t len = nul ? (size_t)(nul - (s + pos)) : size - pos;
        dump_item_str(d, pos, s + pos, len);
        pos += (uint32_t)len + 1;
    }
    dump_list_end(d, n, total);
}

int cli_kfb_dump(const char *file, const unsigned char *data, size_t size, int json, int full)
{
    kf3ds_kfb_file f;
    dumper d;
    uint32_t sec, i, n;
    int status = open_kfb(file, data, size, &f);
    if (status) {
        if (json) /* still one JSON document, as for a damaged .3ds */
            fputs("[\n]\n", stdout);
        return status;
    }
    memset(&d, 0, sizeof d);
    d.out = stdout;
    d.json = json;
    d.full = full;
    d.first_sep = ": ";
    if (json)
        fputc('[', d.out);
    dump_header(&d, &f);
    for (sec = 0; sec < 7; sec++) {
        dump_region_begin(&d, f.section[sec][0], section_names[sec], f.section[sec][1], 0);
        if (sec == KF3DS_KFB_SECTION_FRAMES && f.num_frames > shown(&d, f.num_frames))
            dump_fld_uint(&d, "shown", shown(&d, f.num_frames));
        if (sec == KF3DS_KFB_SECTION_STRINGS)
            dump_strings(&d, &f);
        dump_chunk_children(&d);
        switch (sec) {
        case KF3DS_KFB_SECTION_NODES:
            for (i = 0; i < f.num_nodes; i++)
                dump_node(&d, &f, i);
            break;
        case KF3DS_KFB_SECTION_CHANNELS:
            for (i = 0; i < f.num_channels; i++)
                dump_channel(&d, &f, i);
            break;
        case KF3DS_KFB_SECTION_FRAMES:
            n = (uint32_t)shown(&d, f.num_frames);
            for (i = 0; i < n; i++)
                dump_frame(&d, &f, i);
            if (!json && n < f.num_frames)
                fprintf(d.out, "  ... %lu more %s (--full shows all)\n",
                        (unsigned long)(f.num_frames - n),
                        cli_plural(f.num_frames - n, "frame", "frames"));
            break;
        case KF3DS_KFB_SECTION_MESHES:
            for (i = 0; i < f.num_meshes; i++)
                dump_mesh(&d, &f, i);
            break;
        case KF3DS_KFB_SECTION_MATERIALS:
            for (i = 0; i < f.num_materials; i++)
                dump_material(&d, &f, i);
            break;
        case KF3DS_KFB_SECTION_MESH_DATA:
            for (i = 0; i < f.num_meshes; i++) {
                kf3ds_kfb_mesh m;
                int kind;
                kf3ds_kfb_mesh_get(&f, i, &m);
                for (kind = 0; kind < 4; kind++)
                    dump_array(&d, &f, &m, i, kind);
            }
            break;
        default:
            break;
        }
        dump_chunk_end(&d);
    }
    if (json)
        fputs("\n]\n", d.out);
    else
        dump_end_line(&d);
    return CLI_EXIT_OK;
}
