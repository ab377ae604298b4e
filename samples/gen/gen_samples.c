/* gen_samples.c — writes posekit's self-made sample files with the library.
 *
 *   hands/{right,left}_{relaxed,fist,open,peace,point}.vpd   hand poses
 *   dance.vmd                                               a 5 s dance
 *   traced.vmd        six bones of the dance as a video tracer gives them
 *
 * Build and run from the repository root after building into build/
 * (samples/README.md):
 *
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iengine/include samples/gen/gen_samples.c \
 *      -Lbuild/engine -lposekit -lm -Wl,-rpath,"$PWD/build/engine" -o build/gen_samples
 *   build/gen_samples samples
 *
 * Conventions (MMD space: left-handed, Y up, the model faces -Z, so its
 * right arm points to -X): a finger of the RIGHT hand curls towards the
 * palm by a positive rotation about +Z and spreads by a rotation about Y;
 * the left hand is the mirror image (x, -y, -z, w), as in mmd_tools'
 * mirror mapping (doc/formats.md §1.7).  The thumb folds across the palm about
 * an axis between +Y and +Z.  Angles below are in degrees and were chosen
 * by hand to look like the named gesture on a standard MMD model.
 */
#include "posekit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static pk_log g_log;

static void die(const char *what)
{
    for (size_t i = 0; i < g_log.count; i++) {
        char buf[512];
        pk_diag_format(&g_log.items[i], buf, sizeof buf);
        fprintf(stderr, "gen_samples: %s\n", buf);
    }
    fprintf(stderr, "gen_samples: %s failed\n", what);
    exit(1);
}

/* Quaternion of a rotation by deg degrees about the axis (x, y, z). */
static void axis_angle(double x, double y, double z, double deg, double q[4])
{
    double n = sqrt(x * x + y * y + z * z), h = deg * PI / 360.0;
    q[0] = x / n * sin(h);
    q[1] = y / n * sin(h);
    q[2] = z / n * sin(h);
    q[3] = cos(h);
}

static void qmul(const double a[4], const double b[4], double o[4])
{
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(o, r, sizeof r);
}

/* A right-hand finger joint: spread about Y, then curl about Z. */
static void finger_q(double curl, double spread, double q[4])
{
    double c[4], s[4];
    axis_angle(0, 0, 1, curl, c);
    axis_angle(0, 1, 0, spread, s);
    qmul(s, c, q);
}

/* The thumb folds about an axis between +Y and +Z (right hand). */
static void thumb_q(double fold, double q[4])
{
    axis_angle(0.1, 0.85, 0.45, fold, q);
}

/* Mirror a right-hand rotation to the left hand. */
static void mirror_q(const double r[4], double l[4])
{
    l[0] = r[0];
    l[1] = -r[1];
    l[2] = -r[2];
    l[3] = r[3];
}

/* ---- hand poses ---- */

typedef struct hand {
    const char *name;
    double thumb[3];   /* fold of 親指０, １, ２ */
    double curl[4][3]; /* index, middle, ring, little: joints 1..3 */
    double spread[4];  /* at joint 1 */
    double wrist[3];   /* wrist: rotation about X, Y, Z */
} hand;

static const hand HANDS[] = {
    {"relaxed",
     {5, 10, 12},
     {{10, 15, 10}, {14, 18, 12}, {18, 22, 14}, {22, 26, 16}},
     {-4, 0, 3, 6},
     {0, 0, 5}},
    {"fist",
     {25, 45, 40},
     {{80, 95, 70}, {85, 95, 70}, {85, 95, 70}, {85, 95, 70}},
     {0, 0, 0, 0},
     {0, 0, 0}},
    {"open",
     {-10, 0, 0},
     {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
     {-10, -3, 5, 12},
     {0, 0, -5}},
    {"peace",
     {25, 40, 35},
     {{0, 0, 0}, {0, 0, 0}, {85, 95, 70}, {85, 95, 70}},
     {-8, 6, 0, 0},
     {0, 0, 0}},
    {"point",
     {20, 35, 30},
     {{0, 0, 0}, {85, 95, 70}, {85, 95, 70}, {85, 95, 70}},
     {-3, 0, 0, 0},
     {0, 0, 0}},
};

static const char *const FINGER[4] = {"人指", "中指", "薬指", "小指"};
static const char *const DIGIT[4] = {"０", "１", "２", "３"};

typedef struct joint {
    char name[64]; /* UTF-8 */
    double q[4];
} joint;

/* The 17 joints of one hand (wrist, thumb 0-2, four fingers 1-3). */
static size_t hand_joints(const hand *h, bool left, joint out[17])
{
    const char *side = left ? "左" : "右";
    size_t n = 0;
    double q[4], wx[4], wy[4], wz[4], t[4];
    axis_angle(1, 0, 0, h->wrist[0], wx);
    axis_angle(0, 1, 0, h->wrist[1], wy);
    axis_angle(0, 0, 1, h->wrist[2], wz);
    qmul(wy, wx, t);
    qmul(t, wz, q);
    snprintf(out[n].name, sizeof out[n].name, "%s手首", side);
    memcpy(out[n++].q, q, sizeof q);
    for (int i = 0; i < 3; i++) {
        thumb_q(h->thumb[i], q);
        snprintf(out[n].name, sizeof out[n].name, "%s親指%s", side, DIGIT[i]);
        memcpy(out[n++].q, q, sizeof q);
    }
    for (int f = 0; f < 4; f++)
        for (int j = 0; j < 3; j++) {
            finger_q(h->curl[f][j], j == 0 ? h->spread[f] : 0.0, q);
            snprintf(out[n].name, sizeof out[n].name, "%s%s%s", side, FINGER[f], DIGIT[j + 1]);
            memcpy(out[n++].q, q, sizeof q);
        }
    if (left)
        for (size_t i = 0; i < n; i++) {
            double l[4];
            mirror_q(out[i].q, l);
            memcpy(out[i].q, l, sizeof l);
        }
    return n;
}

static const char MODEL[] = "初音ミク";

static void write_buf(const char *path, const pk_buf *b)
{
    if (b->oom || pk_file_write_atomic(path, b->data, b->len, &g_log) != 0)
        die(path);
    printf("wrote %s (%zu bytes)\n", path, b->len);
}

static void set_pose_model(pk_pose *p)
{
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(MODEL, &raw, &len) != 0 || pk_pose_set_model(p, raw, len, &g_log) != 0)
        die("model name");
    free(raw);
}

static void write_hand(const char *dir, const hand *h, bool left)
{
    pk_pose *p = pk_pose_new();
    if (!p)
        die("pk_pose_new");
    set_pose_model(p);
    joint js[17];
    size_t n = hand_joints(h, left, js);
    for (size_t i = 0; i < n; i++) {
        pk_pose_bone *b = pk_pose_push_bone(p);
        if (!b)
            die("push");
        b->name = pk_names_intern_utf8(p->names, js[i].name, PK_VPD_NAME_BYTES, "VPD bone", &g_log);
        if (b->name == PK_NO_NAME)
            die(js[i].name);
        for (int k = 0; k < 4; k++)
            b->rot[k] = (float)js[i].q[k];
    }
    pk_buf buf;
    pk_buf_init(&buf);
    if (pk_vpd_write(p, NULL, &buf, &g_log) != 0)
        die("pk_vpd_write");
    char path[1024];
    snprintf(path, sizeof path, "%s/hands/%s_%s.vpd", dir, left ? "left" : "right", h->name);
    write_buf(path, &buf);
    pk_buf_free(&buf);
    pk_pose_free(p);
}

/* ---- the dance ---- */

/* Curves (x1, y1, x2, y2): MMD's linear, a smooth ease in/out, a quick
 * start that settles (ease out), a slow start (ease in). */
static const uint8_t LIN[4] = {20, 20, 107, 107};
static const uint8_t EASE[4] = {64, 0, 64, 127};
static const uint8_t OUT[4] = {10, 60, 50, 127};
static const uint8_t IN[4] = {80, 0, 110, 70};

static pk_motion *g_m;

static void bone_key(const char *name, uint32_t frame, const double pos[3], const double q[4],
                     const uint8_t rot_curve[4], const uint8_t pos_curve[4])
{
    pk_bone_key *k = pk_motion_push_bone(g_m);
    if (!k)
        die("push");
    k->name = pk_names_intern_utf8(g_m->names, name, PK_VMD_NAME_BYTES, "VMD bone", &g_log);
    if (k->name == PK_NO_NAME)
        die(name);
    k->frame = frame;
    for (int i = 0; i < 3; i++)
        k->pos[i] = pos ? (float)pos[i] : 0.0f;
    for (int i = 0; i < 4; i++)
        k->rot[i] = (float)q[i];
    uint8_t cp[4][4];
    for (int a = 0; a < 3; a++)
        memcpy(cp[a], pos_curve ? pos_curve : LIN, 4);
    memcpy(cp[3], rot_curve, 4);
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
}

/* Rotation from angles about X, Y, Z (degrees), applied Y * X * Z. */
static void euler(double rx, double ry, double rz, double q[4])
{
    double x[4], y[4], z[4], t[4];
    axis_angle(1, 0, 0, rx, x);
    axis_angle(0, 1, 0, ry, y);
    axis_angle(0, 0, 1, rz, z);
    qmul(y, x, t);
    qmul(t, z, q);
}

typedef struct rkey {
    uint32_t frame;
    double rx, ry, rz;
    const uint8_t *curve;
} rkey;

static void rot_track(const char *name, const rkey *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double q[4];
        euler(k[i].rx, k[i].ry, k[i].rz, q);
        bone_key(name, k[i].frame, NULL, q, k[i].curve, NULL);
    }
}

static void morph_key(const char *name, uint32_t frame, float w)
{
    pk_morph_key *k = pk_motion_push_morph(g_m);
    if (!k)
        die("push");
    k->name = pk_names_intern_utf8(g_m->names, name, PK_VMD_NAME_BYTES, "VMD morph", &g_log);
    if (k->name == PK_NO_NAME)
        die(name);
    k->frame = frame;
    k->weight = w;
}

/* Both hands: relaxed, opening, relaxed, half closed, relaxed, with eased
 * curves, so that overlays at 30-60 and 90-120 cut through curved
 * segments. */
static void hand_tracks(bool left)
{
    static const struct {
        uint32_t frame;
        int shape; /* index into HANDS, -1 = half way between relaxed and fist */
        const uint8_t *curve;
    } K[] = {{0, 0, LIN}, {45, 2, EASE}, {75, 0, OUT}, {105, -1, IN}, {150, 0, EASE}};
    hand half = HANDS[0];
    for (int f = 0; f < 4; f++)
        for (int j = 0; j < 3; j++)
            half.curl[f][j] = (HANDS[0].curl[f][j] + HANDS[1].curl[f][j]) / 2;
    for (int i = 0; i < 3; i++)
        half.thumb[i] = (HANDS[0].thumb[i] + HANDS[1].thumb[i]) / 2;
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
        const hand *h = K[k].shape < 0 ? &half : &HANDS[K[k].shape];
        joint js[17];
        size_t n = hand_joints(h, left, js);
        for (size_t i = 1; i < n; i++) /* the wrist is keyed with the arm */
            bone_key(js[i].name, K[k].frame, NULL, js[i].q, K[k].curve, NULL);
    }
}

static void write_dance(const char *dir)
{
    g_m = pk_motion_new();
    if (!g_m)
        die("pk_motion_new");
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(MODEL, &raw, &len) != 0 || pk_motion_set_model(g_m, raw, len, &g_log))
        die("model name");
    free(raw);

    /* センター: a sway left and right with a small bounce on each beat. */
    static const double centre[][4] = {
        {0, 0, 0, 0},   {15, 0.8, -0.4, 0},  {30, 0, 0, 0}, {45, -0.8, -0.4, 0},
        {60, 0, 0, 0},  {75, 0.8, -0.4, 0},  {90, 0, 0, 0}, {105, -0.8, -0.4, 0},
        {120, 0, 0, 0}, {135, 0.5, -0.2, 0}, {150, 0, 0, 0}};
    double id[4] = {0, 0, 0, 1};
    for (size_t i = 0; i < sizeof centre / sizeof centre[0]; i++)
        bone_key("センター", (uint32_t)centre[i][0], &centre[i][1], id, LIN, EASE);

    static const rkey upper[] = {{0, 0, 0, 0, LIN},     {30, 5, 12, 0, EASE}, {60, 0, 0, 0, EASE},
                                 {90, 5, -12, 0, EASE}, {120, 0, 0, 0, EASE}, {150, 0, 0, 0, LIN}};
    rot_track("上半身", upper, 6);
    static const rkey lower[] = {
        {0, 0, 0, 0, LIN}, {30, 0, -6, 0, EASE}, {90, 0, 6, 0, EASE}, {150, 0, 0, 0, EASE}};
    rot_track("下半身", lower, 4);
    static const rkey neck[] = {
        {0, 0, 0, 0, LIN}, {40, -6, 0, 0, OUT}, {80, 4, 0, 0, EASE}, {150, 0, 0, 0, IN}};
    rot_track("首", neck, 4);
    static const rkey head[] = {{0, 0, 0, 0, LIN},    {15, 8, 0, 3, EASE},    {45, 8, 0, -3, EASE},
                                {75, -4, 10, 0, OUT}, {110, 6, -10, 0, EASE}, {150, 0, 0, 0, EASE}};
    rot_track("頭", head, 6);

    /* Arms down from the T-stance, swinging; the right side mirrors the
     * left (rotation about Z and Y change sign). */
    static const rkey arm_l[] = {{0, 0, 0, -40, LIN},   {30, 0, -20, -20, EASE},
                                 {60, 0, 10, -45, OUT}, {90, 0, -25, -15, EASE},
                                 {120, 0, 5, -40, IN},  {150, 0, 0, -40, EASE}};
    static const rkey elbow_l[] = {{0, 0, 20, 0, LIN},  {30, 0, 70, 0, EASE},  {60, 0, 30, 0, EASE},
                                   {90, 0, 80, 0, OUT}, {120, 0, 40, 0, EASE}, {150, 0, 20, 0, IN}};
    static const rkey wrist_l[] = {{0, 0, 0, 0, LIN},
                                   {45, 15, 0, -10, EASE},
                                   {75, -10, 0, 5, OUT},
                                   {105, 10, 0, -15, IN},
                                   {150, 0, 0, 0, EASE}};
    rot_track("左腕", arm_l, 6);
    rot_track("左ひじ", elbow_l, 6);
    rot_track("左手首", wrist_l, 5);
    rkey arm_r[6], elbow_r[6], wrist_r[5];
    for (int i = 0; i < 6; i++) {
        arm_r[i] = arm_l[i]; /* same timing, mirrored angles */
        arm_r[i].ry = -arm_l[i].ry;
        arm_r[i].rz = -arm_l[i].rz;
        elbow_r[i] = elbow_l[i];
        elbow_r[i].ry = -elbow_l[i].ry;
    }
    for (int i = 0; i < 5; i++) {
        wrist_r[i] = wrist_l[i];
        wrist_r[i].ry = -wrist_l[i].ry;
        wrist_r[i].rz = -wrist_l[i].rz;
    }
    rot_track("右腕", arm_r, 6);
    rot_track("右ひじ", elbow_r, 6);
    rot_track("右手首", wrist_r, 5);
    hand_tracks(false);
    hand_tracks(true);

    /* Morphs: a blink twice, the mouth on the beat, a smile at the end. */
    static const struct {
        const char *name;
        uint32_t frame;
        float w;
    } M[] = {{"まばたき", 0, 0},  {"まばたき", 38, 0},  {"まばたき", 41, 1},  {"まばたき", 44, 0},
             {"まばたき", 98, 0}, {"まばたき", 101, 1}, {"まばたき", 104, 0}, {"あ", 0, 0},
             {"あ", 15, 0.6f},    {"あ", 30, 0},        {"あ", 75, 0.8f},     {"あ", 90, 0},
             {"笑い", 0, 0},      {"笑い", 120, 0},     {"笑い", 140, 1}};
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++)
        morph_key(M[i].name, M[i].frame, M[i].w);

    pk_buf buf;
    pk_buf_init(&buf);
    if (pk_vmd_write(g_m, &buf, &g_log) != 0)
        die("pk_vmd_write");
    char path[1024];
    snprintf(path, sizeof path, "%s/dance.vmd", dir);
    write_buf(path, &buf);
    pk_buf_free(&buf);
}

/* A fixed-seed generator: the same file on every run. */
static double uniform(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (double)(*s >> 8) / 16777216.0;
}

/* Six bones of the dance (g_m) as a video tracer gives them: a key at
 * every frame with linear curves, each rotation turned by 1 degree about
 * a random axis and センター moved by 0.02 units in a random direction
 * (`posekit smooth`'s example). */
static void write_traced(const char *dir)
{
    static const char *const BONES[] = {"センター", "上半身", "首", "頭", "左腕", "右腕"};
    pk_motion *t = pk_motion_new();
    pk_tracks *tr = pk_tracks_build(g_m, &g_log);
    uint8_t *raw;
    size_t len;
    if (!t || !tr || pk_utf8_to_cp932(MODEL, &raw, &len) != 0 ||
        pk_motion_set_model(t, raw, len, &g_log))
        die("traced motion");
    free(raw);
    uint32_t seed = 29;
    for (size_t b = 0; b < sizeof BONES / sizeof BONES[0]; b++) {
        pk_name_id id = pk_names_intern_utf8(t->names, BONES[b], 15, "VMD bone", &g_log);
        size_t nlen;
        const uint8_t *name = pk_names_raw(t->names, id, &nlen);
        const pk_track *k = pk_tracks_bone(tr, pk_names_find(g_m->names, name, nlen));
        if (!k)
            die(BONES[b]);
        for (uint32_t f = 0; f <= 150; f++) {
            pk_bone_key *o = pk_motion_push_bone(t);
            if (!o)
                die("pk_motion_push_bone");
            o->name = id;
            o->frame = f;
            float pos[3], rot[4];
            pk_sample_bone(g_m, k, f, pos, rot);
            double z = 2.0 * uniform(&seed) - 1.0, a = 2.0 * PI * uniform(&seed);
            double r = sqrt(1.0 - z * z), n[4], q[4] = {rot[0], rot[1], rot[2], rot[3]}, o4[4];
            axis_angle(r * cos(a), r * sin(a), z, 1.0, n);
            qmul(q, n, o4);
            for (int c = 0; c < 4; c++)
                o->rot[c] = (float)o4[c];
            z = 2.0 * uniform(&seed) - 1.0;
            a = 2.0 * PI * uniform(&seed);
            r = sqrt(1.0 - z * z);
            double d[3] = {r * cos(a), r * sin(a), z};
            for (int c = 0; c < 3; c++)
                o->pos[c] = b == 0 ? (float)(pos[c] + 0.02 * d[c]) : 0.0f;
            pk_interp_linear(o->interp);
        }
    }
    pk_buf buf;
    pk_buf_init(&buf);
    if (pk_vmd_write(t, &buf, &g_log) != 0)
        die("pk_vmd_write");
    char path[1024];
    snprintf(path, sizeof path, "%s/traced.vmd", dir);
    write_buf(path, &buf);
    pk_buf_free(&buf);
    pk_tracks_free(tr);
    pk_motion_free(t);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "samples";
    pk_log_init(&g_log);
    for (size_t i = 0; i < sizeof HANDS / sizeof HANDS[0]; i++) {
        write_hand(dir, &HANDS[i], false);
        write_hand(dir, &HANDS[i], true);
    }
    write_dance(dir);
    write_traced(dir);
    pk_motion_free(g_m);
    pk_log_free(&g_log);
    return 0;
}
