/* mk3ds random SEED FILE: a random valid animated scene for the differential
 * test against lib3ds 1.3, the same file for a seed on every platform. */
#include "mk3ds.h"

#include <stdio.h>
#include <stdlib.h>

/* Frames 0 = f_0 < f_1 < ... (strictly increasing integers). */
static void random_frames(int n, int32_t *frames)
{
    int i;
    frames[0] = 0;
    for (i = 1; i < n; i++)
        frames[i] = frames[i - 1] + 1 + rndint(25);
}

/* A track of 1..maxkeys keys (at most 8) with TCB on some interior keys;
 * values in [lo, hi] (FOV, ROLL: one, else three), ROT: a random axis and an
 * angle (lo, hi unused). Returns the last key's frame. */
static int32_t random_track(scene *s, int node, uint16_t tag, double lo, double hi, int maxkeys)
{
    int32_t frames[8];
    int n = 1 + rndint(maxkeys), i;
    track *t = add_track(s, node, tag, 0);
    random_frames(n, frames);
    for (i = 0; i < n; i++) {
        kkey *k;
        if (tag == KF3DS_CHUNK_ROT_TRACK_TAG) {
            double ax[3], ang;
            random_axis(ax);
            ang = chance(0.3) ? rnduni(-0.5, 0.5) : rnduni(-169.0, 169.0) * PI / 180.0;
            k = key4(t, frames[i], ang, ax[0], ax[1], ax[2]);
        } else if (tag == KF3DS_CHUNK_FOV_TRACK_TAG || tag == KF3DS_CHUNK_ROLL_TRACK_TAG) {
            k = key1(t, frames[i], rnduni(lo, hi));
        } else {
            double r3[3];
            rnd3(r3, lo, hi);
            k = key3(t, frames[i], r3[0], r3[1], r3[2]);
        }
        if (i > 0 && i < n - 1)
            random_tcb(k, 0.4);
    }
    return frames[n - 1];
}

static int32_t later_frame(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

static mat4 random_mesh_matrix(int mirrored)
{
    double ax[3], tr[3], sc[3], ang;
    random_axis(ax);
    rnd3(tr, -40, 40);
    ang = rnduni(-PI, PI);
    rnd3(sc, 0.5, 2);
    if (mirrored)
        sc[0] = -sc[0];
    return mat_mul(mat_translate(tr[0], tr[1], tr[2]),
                   mat_mul(mat_rotate(ang, ax[0], ax[1], ax[2]), mat_scale(sc[0], sc[1], sc[2])));
}

void make_random(uint64_t seed, const char *path)
{
    scene s;
    int nobj, ntotal, i, idmode, slot_cam, slot_tgt, slot_light, slot_amb, obj_made = 0;
    int *objnodes, nobjnodes = 0;
    int *mesh_of; /* per node: mesh index, -1 */
    int32_t last = 1;
    char name[64];
    int cam = -1, tgt = -1, lamp = -1, inst_counter = 0;

    rng_seed(seed);
    nobj = 3 + rndint(23);
    ntotal = nobj + 3;
    slot_amb = chance(0.3) ? rndint(ntotal + 1) : -1;
    if (slot_amb >= 0)
        ntotal++;
    /* camera, target and light anywhere in file order */
    do {
        slot_cam = rndint(ntotal);
        slot_tgt = rndint(ntotal);
        slot_light = rndint(ntotal);
    } while (slot_cam == slot_tgt || slot_cam == slot_light || slot_tgt == slot_light ||
             slot_amb == slot_cam || slot_amb == slot_tgt || slot_amb == slot_light);

    scene_init(&s, "random", 100);
    add_material(&s, "Red", 220, 40, 40);
    add_material(&s, "Blue", 40, 60, 220);
    objnodes = xrealloc(NULL, (size_t)ntotal * sizeof *objnodes);
    mesh_of = xrealloc(NULL, (size_t)ntotal * sizeof *mesh_of);

    for (i = 0; i < ntotal; i++) {
        int n, parent = -1;
        mesh_of[i] = -1;
        if (i == slot_cam || i == slot_tgt || i == slot_light) {
            uint16_t tag = i == slot_cam   ? KF3DS_CHUNK_CAMERA_NODE_TAG
                           : i == slot_tgt ? KF3DS_CHUNK_TARGET_NODE_TAG
                                           : KF3DS_CHUNK_LIGHT_NODE_TAG;
            if (nobjnodes > 0 && chance(0.3))
                parent = objnodes[rndint(nobjnodes)];
            n = add_node(&s, tag, tag == KF3DS_CHUNK_LIGHT_NODE_TAG ? "Omni01" : "Cam01", parent);
            if (tag == KF3DS_CHUNK_LIGHT_NODE_TAG)
                lamp = n;
            else if (tag == KF3DS_CHUNK_CAMERA_NODE_TAG)
                cam = n;
            else
                tgt = n;
            last = later_frame(last, random_track(&s, n, KF3DS_CHUNK_POS_TRACK_TAG, -100, 100, 8));
            if (tag == KF3DS_CHUNK_CAMERA_NODE_TAG) {
                random_track(&s, n, KF3DS_CHUNK_FOV_TRACK_TAG, 20, 80, 4);
                random_track(&s, n, KF3DS_CHUNK_ROLL_TRACK_TAG, -30, 30, 4);
            } else if (tag == KF3DS_CHUNK_LIGHT_NODE_TAG) {
                random_track(&s, n, KF3DS_CHUNK_COL_TRACK_TAG, 0, 1, 4);
            }
            continue;
        }
        if (i == slot_amb) {
            n = add_node(&s, KF3DS_CHUNK_AMBIENT_NODE_TAG, "$AMBIENT$", -1);
            random_track(&s, n, KF3DS_CHUNK_COL_TRACK_TAG, 0, 1, 4);
            continue;
        }
        if (nobjnodes > 0 && chance(0.7))
            parent = objnodes[rndint(nobjnodes)];
        if (obj_made > 0 && chance(0.2)) {
            /* a dummy */
            n = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", parent);
            snprintf(name, sizeof name, "Dummy%02d", obj_made);
            set_inst(&s, n, name);
        } else {
            /* an instance of an earlier mesh, or a new mesh */
            int src = -1, j;
            if (nobjnodes > 0 && chance(0.15)) {
                for (j = 0; j < 4 && src < 0; j++) {
                    int cand = objnodes[rndint(nobjnodes)];
                    if (mesh_of[cand] >= 0)
                        src = cand;
                }
            }
            if (src >= 0) {
                n = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, s.nodes[src].name, parent);
                mesh_of[n] = mesh_of[src];
                if (!s.nodes[src].inst[0]) {
                    snprintf(name, sizeof name, "Inst%02d", inst_counter++);
                    set_inst(&s, src, name);
                }
                snprintf(name, sizeof name, "Inst%02d", inst_counter++);
                set_inst(&s, n, name);
            } else {
                int m;
                const char *mat = chance(0.7) ? s.mats[rndint(2)].name : NULL;
                double c3[3], h3[3];
                rnd3(c3, -2, 2);
                rnd3(h3, 0.5, 4);
                snprintf(name, sizeof name, "Mesh%02d", obj_made);
                n = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, name, parent);
                m = add_mesh(&s, name, mat, -1, c3[0], c3[1], c3[2], h3[0], h3[1], h3[2]);
                s.meshes[m].matrix = random_mesh_matrix(chance(0.3));
                mesh_of[n] = m;
            }
        }
        if (chance(0.7)) {
            double p3[3];
            rnd3(p3, -3, 3);
            set_pivot(&s, n, p3[0], p3[1], p3[2]);
        }
        /* one statement each: the draws must keep their order */
        last = later_frame(last, random_track(&s, n, KF3DS_CHUNK_POS_TRACK_TAG, -30, 30, 8));
        last = later_frame(last, random_track(&s, n, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 0, 8));
        last = later_frame(last, random_track(&s, n, KF3DS_CHUNK_SCL_TRACK_TAG, 0.4, 2.0, 8));
        objnodes[nobjnodes++] = n;
        obj_made++;
    }

    /* Node ids: 0 none (parents are file-order indices), 1 a shuffled
     * permutation of 0..n-1, 2 shuffled distinct numbers below 1000, 3 ids
     * >= 1000 on some nodes only (the others keep their file-order index). */
    idmode = rndint(4);
    if (idmode > 0) {
        int *ids = xrealloc(NULL, (size_t)s.nn * sizeof *ids);
        for (i = 0; i < s.nn; i++)
            ids[i] = idmode == 1 ? i : idmode == 2 ? i * (1000 / s.nn) + rndint(1000 / s.nn) : 1000 + i * 7;
        for (i = s.nn - 1; i > 0; i--) {
            int j = rndint(i + 1), tmp = ids[i];
            ids[i] = ids[j];
            ids[j] = tmp;
        }
        for (i = 0; i < s.nn; i++)
            if (idmode != 3 || chance(0.5))
                set_id(&s, i, (uint16_t)ids[i]);
        free(ids);
    }

    s.length = last < 100 ? 100 : last;
    s.seg_to = s.length;
    add_camera_at_nodes(&s, "Cam01", cam, tgt, 0, 35);
    add_light_at_node(&s, "Omni01", lamp, 1, 1, 1);
    scene_save(&s, path);
    free(objnodes);
    free(mesh_of);
    scene_free(&s);
}
