/* The samples of data/ (mk3ds samples DIR): orrery.3ds, arm.3ds, edge.3ds. */
#include "mk3ds.h"

/* ------------------------------------------------------------------------ */
/* Sample: orrery                                                           */
/* ------------------------------------------------------------------------ */

void make_orrery(const char *path)
{
    scene s;
    int sun, orbit, planet, moon, cam, tgt, lamp;
    track *t;
    kkey *k;

    scene_init(&s, "orrery", 100);
    add_material(&s, "Sun", 255, 200, 40);
    add_material(&s, "Planet", 60, 110, 230);
    add_material(&s, "Moon", 170, 170, 170);

    /* 0: the sun spins two full turns in one key (720°), looping. */
    sun = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Sun", -1);
    set_pivot(&s, sun, 0, 0, 0);
    t = add_turning_tracks(&s, sun, 3, 0, 0, 0);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 100, 720, 0, 0, 1);

    /* 1: the planet's orbit, a rotating dummy: four -90° increments about Z
     * (counter-clockwise seen from above), TCB inside, ease at both ends. */
    orbit = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", -1);
    set_inst(&s, orbit, "PlanetOrbit");
    t = add_turning_tracks(&s, orbit, 0, 0, 0, 0);
    k = keyrot(t, 0, 0, 0, 0, 1);
    ease(k, 0, 0.4);
    k = keyrot(t, 25, -90, 0, 0, 1);
    tcb(k, 0.3, 0, 0);
    k = keyrot(t, 50, -90, 0, 0, 1);
    tcb(k, 0, -0.2, 0.3);
    k = keyrot(t, 75, -90, 0, 0, 1);
    tcb(k, -0.2, 0, 0);
    k = keyrot(t, 100, -90, 0, 0, 1);
    ease(k, 0.4, 0);

    /* 2: the planet, 40 units out on the orbit, tilted, spinning once. */
    planet = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Planet", orbit);
    set_pivot(&s, planet, 0, 0, 0.5);
    t = add_turning_tracks(&s, planet, 0, 40, 0, 0);
    keyrot(t, 0, 23.5, 1, 0, 0);
    k = keyrot(t, 30, -120, 0, 0, 1);
    tcb(k, 0, 0.25, 0);
    k = keyrot(t, 60, -120, 0, 0, 1);
    tcb(k, 0.4, 0, -0.3);
    keyrot(t, 100, -120, 0, 0, 1);

    /* 3: the moon, 10 units from the planet in its (spinning) frame. */
    moon = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Moon", planet);
    set_pivot(&s, moon, -1, 0, 0);
    key3(add_track(&s, moon, KF3DS_CHUNK_POS_TRACK_TAG, 0), 0, 10, 0, 0);
    t = add_track(&s, moon, KF3DS_CHUNK_ROT_TRACK_TAG, 0);
    keyrot(t, 0, 30, 1, 1, 0);
    keyrot(t, 50, 150, 0, 0, 1);
    keyrot(t, 100, 150, 0, 1, 0);
    t = add_track(&s, moon, KF3DS_CHUNK_SCL_TRACK_TAG, 0);
    k = key3(t, 0, 1, 1, 1);
    ease(k, 0, 0.5);
    k = key3(t, 50, 1.3, 1.3, 1.3);
    tcb(k, 0.5, 0, 0);
    k = key3(t, 100, 1, 1, 1);
    ease(k, 0.5, 0);

    /* 4, 5: camera and its animated target. */
    cam = add_node(&s, KF3DS_CHUNK_CAMERA_NODE_TAG, "Camera01", -1);
    t = add_track(&s, cam, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, 0, -160, 90);
    k = key3(t, 50, 90, -120, 70);
    tcb(k, 0, 0.2, 0);
    key3(t, 100, 0, -160, 90);
    tgt = add_node(&s, KF3DS_CHUNK_TARGET_NODE_TAG, "Camera01", -1);
    t = add_track(&s, tgt, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, 0, 0, 0);
    key3(t, 50, 20, 10, 0);
    key3(t, 100, 0, 0, 0);

    /* 6: omni light above the sun. */
    lamp = add_node(&s, KF3DS_CHUNK_LIGHT_NODE_TAG, "Light01", -1);
    key3(add_track(&s, lamp, KF3DS_CHUNK_POS_TRACK_TAG, 0), 0, 0, 0, 70);
    key3(add_track(&s, lamp, KF3DS_CHUNK_COL_TRACK_TAG, 0), 0, 1, 0.95, 0.8);

    add_mesh(&s, "Sun", "Sun", sun, 0, 0, 0, 8, 8, 8);
    add_mesh(&s, "Planet", "Planet", planet, 0, 0, 0, 4, 4, 4);
    add_mesh(&s, "Moon", "Moon", moon, 0, 0, 0, 1.5, 1.5, 1.5);
    add_camera_at_nodes(&s, "Camera01", cam, tgt, 0, 35);
    add_light_at_node(&s, "Light01", lamp, 1, 0.95, 0.8);

    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Sample: arm                                                              */
/* ------------------------------------------------------------------------ */

/* A scalar track of the 60-frame arm scene: `ends` at frames 0 and 60,
 * `middle` at frame 30. */
static void add_out_and_back_track(scene *s, int i, uint16_t tag, double ends, double middle)
{
    track *t = add_track(s, i, tag, 0);
    key1(t, 0, ends);
    key1(t, 30, middle);
    key1(t, 60, ends);
}

void make_arm(const char *path)
{
    scene s;
    int base, upper, fore, hand, fl, fr, spot, stgt, cam, ctgt, m;
    track *t;
    kkey *k;
    double spot_target[3];
    light *l;

    scene_init(&s, "arm", 60);
    add_material(&s, "Steel", 180, 180, 190);
    add_material(&s, "Orange", 240, 120, 20);
    add_material(&s, "Rubber", 40, 40, 40);

    /* Each box is centred on its local origin; the pivot is the joint at the
     * bottom of the box; POS is the joint in the parent's pivot frame. */
    base = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Base", -1);
    set_pivot(&s, base, 0, 0, -5);
    t = add_turning_tracks(&s, base, 0, 0, 0, 0);
    keyrot(t, 0, 30, 0, 0, 1);
    k = keyrot(t, 20, -60, 0, 0, 1);
    tcb(k, 0.2, 0, 0);
    keyrot(t, 40, -60, 0, 0, 1);
    keyrot(t, 60, 90, 0, 0, 1);

    upper = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "UpperArm", base);
    set_pivot(&s, upper, 0, 0, -15);
    t = add_turning_tracks(&s, upper, 0, 0, 0, 10);
    keyrot(t, 0, -25, 1, 0, 0);
    k = keyrot(t, 15, 40, 1, 0, 0);
    tcb(k, 0, 0.3, 0);
    keyrot(t, 30, -30, 1, 0, 0);
    k = keyrot(t, 45, 20, 1, 0, 0);
    tcb(k, 0, 0, 0.4);
    keyrot(t, 60, -5, 1, 0, 0);

    fore = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Forearm", upper);
    set_pivot(&s, fore, 0, 0, -12);
    t = add_turning_tracks(&s, fore, 0, 0, 0, 30);
    keyrot(t, 0, -60, 1, 0, 0);
    keyrot(t, 20, 50, 1, 0, 0);
    k = keyrot(t, 40, -70, 1, 0, 0);
    tcb(k, 0.5, 0, 0);
    keyrot(t, 60, 20, 1, 0, 0);

    /* The hand twists about the forearm's long axis, switches to the open
     * hand mesh between frames 30 and 50 and is hidden between 40 and 50. */
    hand = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "Hand", fore);
    set_pivot(&s, hand, 0, 0, -3);
    t = add_turning_tracks(&s, hand, 0, 0, 0, 24);
    keyrot(t, 0, 10, 0, 0, 1);
    keyrot(t, 30, 90, 0, 0, 1);
    keyrot(t, 60, -100, 0, 0, 1);
    t = add_track(&s, hand, KF3DS_CHUNK_HIDE_TRACK_TAG, 0);
    add_key(t, 0);
    add_key(t, 40);
    add_key(t, 50);
    t = add_track(&s, hand, KF3DS_CHUNK_MORPH_TRACK_TAG, 0);
    keyname(t, 0, "Hand");
    keyname(t, 30, "HandOpen");
    keyname(t, 50, "Hand");

    fl = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "FingerL", hand);
    set_pivot(&s, fl, 0, 0, -3);
    t = add_turning_tracks(&s, fl, 0, 2.5, 0, 6);
    keyrot(t, 0, -15, 0, 1, 0);
    keyrot(t, 30, 20, 0, 1, 0);
    keyrot(t, 60, -20, 0, 1, 0);

    /* The right finger is the left one mirrored: its MESH_MATRIX has a
     * negative determinant. */
    fr = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "FingerR", hand);
    set_pivot(&s, fr, 0, 0, -3);
    t = add_turning_tracks(&s, fr, 0, -2.5, 0, 6);
    keyrot(t, 0, 15, 0, 1, 0);
    keyrot(t, 30, -20, 0, 1, 0);
    keyrot(t, 60, 20, 0, 1, 0);

    spot = add_node(&s, KF3DS_CHUNK_SPOTLIGHT_NODE_TAG, "Spot01", -1);
    t = add_track(&s, spot, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, -50, -40, 90);
    key3(t, 60, -30, -60, 90);
    t = add_track(&s, spot, KF3DS_CHUNK_COL_TRACK_TAG, 0);
    key3(t, 0, 1, 1, 1);
    k = key3(t, 30, 1, 0.6, 0.3);
    tcb(k, 0.25, 0, 0);
    key3(t, 60, 1, 1, 1);
    add_out_and_back_track(&s, spot, KF3DS_CHUNK_HOT_TRACK_TAG, 25, 15);
    add_out_and_back_track(&s, spot, KF3DS_CHUNK_FALL_TRACK_TAG, 40, 30);
    stgt = add_node(&s, KF3DS_CHUNK_L_TARGET_NODE_TAG, "Spot01", -1);
    t = add_track(&s, stgt, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, 0, 0, 40);
    key3(t, 60, 10, 5, 50);

    cam = add_node(&s, KF3DS_CHUNK_CAMERA_NODE_TAG, "Cam01", -1);
    t = add_track(&s, cam, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, 90, -90, 70);
    key3(t, 60, 70, -110, 60);
    add_out_and_back_track(&s, cam, KF3DS_CHUNK_FOV_TRACK_TAG, 48, 35);
    add_out_and_back_track(&s, cam, KF3DS_CHUNK_ROLL_TRACK_TAG, 0, 8);
    ctgt = add_node(&s, KF3DS_CHUNK_TARGET_NODE_TAG, "Cam01", -1);
    t = add_track(&s, ctgt, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 0, 0, 0, 35);
    key3(t, 60, 0, 0, 45);

    add_mesh(&s, "Base", "Steel", base, 0, 0, 0, 10, 10, 5);
    add_mesh(&s, "UpperArm", "Orange", upper, 0, 0, 0, 3, 3, 15);
    add_mesh(&s, "Forearm", "Orange", fore, 0, 0, 0, 2.5, 2.5, 12);
    add_mesh(&s, "Hand", "Steel", hand, 0, 0, 0, 4, 2, 3);
    add_mesh(&s, "HandOpen", "Steel", hand, 0, 0, 0.5, 5, 1.5, 3.5); /* morph target */
    add_mesh(&s, "FingerL", "Rubber", fl, 0, 0, 0, 0.75, 1, 3);
    m = add_mesh(&s, "FingerR", "Rubber", fr, 0, 0, 0, 0.75, 1, 3);
    s.meshes[m].mirrored = 1;

    add_camera_at_nodes(&s, "Cam01", cam, ctgt, 0, 2400.0 / 48.0);
    l = add_light_at_node(&s, "Spot01", spot, 1, 1, 1);
    node_pos0(&s, stgt, spot_target);
    l->spot = 1;
    l->target[0] = (float)spot_target[0];
    l->target[1] = (float)spot_target[1];
    l->target[2] = (float)spot_target[2];
    l->hot = 25;
    l->fall = 40;

    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Sample: edge                                                             */
/* ------------------------------------------------------------------------ */

void make_edge(const char *path)
{
    scene s;
    int amb, a, b, c, dummy, d, e;
    track *t;
    kkey *k;

    scene_init(&s, "edge", 100);
    add_material(&s, "Grey", 128, 128, 128);

    /* 0: ambient first, so every later file-order index counts it. */
    amb = add_node(&s, KF3DS_CHUNK_AMBIENT_NODE_TAG, "$AMBIENT$", -1);
    t = add_track(&s, amb, KF3DS_CHUNK_COL_TRACK_TAG, 0);
    key3(t, 0, 0.1, 0.1, 0.1);
    k = key3(t, 50, 0.4, 0.3, 0.2);
    tcb(k, 0.5, 0, 0);
    key3(t, 100, 0.1, 0.1, 0.1);

    /* 1: BoxA, NODE_ID 100. POS keys out of order; ROT flags 1 (wrap). */
    a = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "BoxA", -1);
    set_id(&s, a, 100);
    t = add_track(&s, a, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 30, 20, 0, 0);
    key3(t, 0, 0, 0, 0);
    key3(t, 15, 10, 10, 0);
    t = add_track(&s, a, KF3DS_CHUNK_ROT_TRACK_TAG, 1);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 20, -90, 0, 0, 1);
    key3(add_track(&s, a, KF3DS_CHUNK_SCL_TRACK_TAG, 0), 0, 1, 1, 1);

    /* 2: BoxB, NODE_ID 101, child of 100. POS flags 2 with two keys on
     * frame 10; ROT flags 3 (loop), four -90° turns about X. */
    b = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "BoxB", a);
    set_id(&s, b, 101);
    set_pivot(&s, b, 0, 0, -2);
    t = add_track(&s, b, KF3DS_CHUNK_POS_TRACK_TAG, 2);
    key3(t, 0, 15, 0, 0);
    key3(t, 10, 15, 5, 0);
    key3(t, 10, 15, 10, 0);
    key3(t, 20, 15, 0, 0);
    t = add_track(&s, b, KF3DS_CHUNK_ROT_TRACK_TAG, 3);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 10, -90, 1, 0, 0);
    keyrot(t, 20, -90, 1, 0, 0);
    keyrot(t, 30, -90, 1, 0, 0);
    keyrot(t, 40, -90, 1, 0, 0);
    t = add_track(&s, b, KF3DS_CHUNK_SCL_TRACK_TAG, 0);
    key3(t, 0, 1, 1, 1);
    key3(t, 25, 1.5, 1, 1);
    key3(t, 50, 1, 1, 1);

    /* 3: BoxC, no NODE_ID (id 3), parent 777 which matches nothing; its POS
     * track starts at frame 20. */
    c = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "BoxC", -1);
    s.nodes[c].raw_parent = 777;
    set_pivot(&s, c, 1, 1, 0);
    t = add_track(&s, c, KF3DS_CHUNK_POS_TRACK_TAG, 0);
    key3(t, 20, -30, 0, 0);
    key3(t, 40, -30, 20, 0);
    key3(t, 60, -30, 20, 10);
    keyrot(add_track(&s, c, KF3DS_CHUNK_ROT_TRACK_TAG, 0), 0, 45, 0, 0, 1);
    key3(add_track(&s, c, KF3DS_CHUNK_SCL_TRACK_TAG, 0), 0, 1, 1, 1);

    /* 4: a dummy, NODE_ID 102, child of BoxB (101). */
    dummy = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", b);
    set_id(&s, dummy, 102);
    set_inst(&s, dummy, "Helper");
    t = add_turning_tracks(&s, dummy, 0, 0, 0, 10);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 50, -90, 0, 0, 1);

    /* 5: BoxD, no NODE_ID (id 5), child of the dummy (102); a rotation key
     * with angle 0 and a zero axis (identity). */
    d = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "BoxD", dummy);
    keyrot(add_turning_tracks(&s, d, 0, 5, 0, 0), 0, 0, 0, 0, 0);

    /* 6: BoxE, no NODE_ID, parent 3 = BoxC by file-order index. */
    e = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, "BoxE", c);
    keyrot(add_turning_tracks(&s, e, 0, 0, 0, 8), 0, 0, 0, 0, 1);

    add_mesh(&s, "BoxA", "Grey", a, 0, 0, 0, 5, 5, 5);
    add_mesh(&s, "BoxB", "Grey", b, 0, 0, 0, 2, 2, 2);
    add_mesh(&s, "BoxC", "Grey", c, 0, 0, 0, 3, 3, 3);
    add_mesh(&s, "BoxD", "Grey", d, 0, 0, 0, 1, 1, 1);
    add_mesh(&s, "BoxE", "Grey", e, 0, 0, 0, 1, 1, 1);

    scene_save(&s, path);
    scene_free(&s);
}
