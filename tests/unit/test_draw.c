/* test_draw.c — pictures of poses (engine/ops/skeleton/draw.c) on a small
 * figure built in memory (tests/unit/pmxgen.h): world positions in the
 * JSON are the evaluator's; control bones (センター, 全ての親, IK parents)
 * are marks, not lines; IK goals of hair apart from the legs'; thin
 * connectors where a parent's line misses its child (a tailless 上半身2,
 * the legs under 下半身's downward tail); --vs shaded by the difference
 * as drawn (IK included) in each side's colour; the canvas sized to the
 * drawing with the title wrapped; frame ranges, selections and bones
 * without a position. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmxgen.h"
#include "testutil.h"

#define PI 3.14159265358979323846

/* ---- a small figure ---- */

enum { NO_TAIL = -1, OFFSET = -2 };

typedef struct spec {
    const char *name;
    float x, y, z;
    int parent;
    int tail; /* a bone, NO_TAIL, or OFFSET (then tx, ty, tz) */
    float tx, ty, tz;
    int ik_target; /* -1: not an IK bone */
    int links[2];  /* effector end first; -1 unused */
    bool hidden;
} spec;

/* 全ての親 - センター (tail: a pole 10 units down, 2 below the floor) -
 * グルーブ - 下半身 (tail down between the legs) and 上半身 - 上半身2
 * (no tail, three children: 首, 左肩, 右肩) - 首 - 頭 - 髪 - 髪先; legs
 * 足 - ひざ - 足首 under 下半身's sides; 足IK親 - 足ＩＫ on the floor;
 * 左髪ＩＫ pulls the hair. */
enum {
    ROOT,
    CENTRE,
    GROOVE,
    LOWER,
    UPPER,
    UPPER2,
    NECK,
    SHOULDER_L,
    SHOULDER_R,
    HEAD,
    HIP_L,
    KNEE_L,
    ANKLE_L,
    HIP_R,
    KNEE_R,
    ANKLE_R,
    IKP_L,
    IK_L,
    IKP_R,
    IK_R,
    HAIR,
    HAIR_TIP,
    HAIR_IK,
    NBONES
};

static const spec FIG[NBONES] = {
    [ROOT] = {"全ての親", 0, 0, 0, -1, CENTRE, 0, 0, 0, -1, {-1, -1}, false},
    [CENTRE] = {"センター", 0, 8, 0, ROOT, OFFSET, 0, -10, 0, -1, {-1, -1}, false},
    [GROOVE] = {"グルーブ", 0, 8.5f, 0, CENTRE, OFFSET, 0, 1, 0, -1, {-1, -1}, false},
    [LOWER] = {"下半身", 0, 10, 0, GROOVE, OFFSET, 0, -1.5f, 0, -1, {-1, -1}, false},
    [UPPER] = {"上半身", 0, 10, 0, GROOVE, UPPER2, 0, 0, 0, -1, {-1, -1}, false},
    [UPPER2] = {"上半身2", 0, 12, 0, UPPER, NO_TAIL, 0, 0, 0, -1, {-1, -1}, false},
    [NECK] = {"首", 0, 14, 0, UPPER2, HEAD, 0, 0, 0, -1, {-1, -1}, false},
    [SHOULDER_L] = {"左肩", 1, 13.5f, 0, UPPER2, OFFSET, 1, 0, 0, -1, {-1, -1}, false},
    [SHOULDER_R] = {"右肩", -1, 13.5f, 0, UPPER2, OFFSET, -1, 0, 0, -1, {-1, -1}, false},
    [HEAD] = {"頭", 0, 15, 0, NECK, OFFSET, 0, 1.5f, 0, -1, {-1, -1}, false},
    [HIP_L] = {"左足", 1, 9, 0, LOWER, KNEE_L, 0, 0, 0, -1, {-1, -1}, false},
    [KNEE_L] = {"左ひざ", 1, 5, -0.1f, HIP_L, ANKLE_L, 0, 0, 0, -1, {-1, -1}, false},
    [ANKLE_L] = {"左足首", 1, 1, 0, KNEE_L, OFFSET, 0, -1, -1, -1, {-1, -1}, false},
    [HIP_R] = {"右足", -1, 9, 0, LOWER, KNEE_R, 0, 0, 0, -1, {-1, -1}, false},
    [KNEE_R] = {"右ひざ", -1, 5, -0.1f, HIP_R, ANKLE_R, 0, 0, 0, -1, {-1, -1}, false},
    [ANKLE_R] = {"右足首", -1, 1, 0, KNEE_R, OFFSET, 0, -1, -1, -1, {-1, -1}, false},
    [IKP_L] = {"左足IK親", 1, 0, 0, ROOT, IK_L, 0, 0, 0, -1, {-1, -1}, false},
    [IK_L] = {"左足ＩＫ", 1, 1, 0, IKP_L, OFFSET, 0, 0, 1, ANKLE_L, {KNEE_L, HIP_L}, false},
    [IKP_R] = {"右足IK親", -1, 0, 0, ROOT, IK_R, 0, 0, 0, -1, {-1, -1}, false},
    [IK_R] = {"右足ＩＫ", -1, 1, 0, IKP_R, OFFSET, 0, 0, 1, ANKLE_R, {KNEE_R, HIP_R}, false},
    [HAIR] = {"髪", 0.5f, 15, 0.5f, HEAD, HAIR_TIP, 0, 0, 0, -1, {-1, -1}, false},
    [HAIR_TIP] = {"髪先", 0.5f, 12, 0.5f, HAIR, NO_TAIL, 0, 0, 0, -1, {-1, -1}, true},
    [HAIR_IK] = {"左髪ＩＫ", 0.5f, 12, 0.5f, ROOT, OFFSET, 0, 0, 1, HAIR_TIP, {HAIR, -1}, false},
};

/* The figure as a PMX file, read back (rest positions moved by `shift`
 * per bone when given: NaN tests; bone `renamed` named `as`). */
static pk_model *figure_model_as(float (*shift)[3], int renamed, const char *as)
{
    const int sizes[6] = {1, 1, 1, 2, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 1, 0, sizes);
    for (int k = 0; k < 4; k++) /* vertices, faces, textures, materials */
        pg_i32(&g, 0);
    pg_i32(&g, NBONES);
    for (int i = 0; i < NBONES; i++) {
        const spec *s = &FIG[i];
        pg_text(&g, i == renamed ? as : s->name);
        pg_text(&g, i == CENTRE ? "center" : "");
        float dx = shift ? shift[i][0] : 0, dy = shift ? shift[i][1] : 0;
        pg_f3(&g, s->x + dx, s->y + dy, s->z);
        pg_idx(&g, PG_BONE, s->parent);
        pg_i32(&g, 0);
        unsigned flags = 0x02 | 0x04 | 0x10 | (s->hidden ? 0 : 0x08);
        if (s->tail != OFFSET)
            flags |= 0x01;
        if (s->ik_target >= 0)
            flags |= 0x20;
        pg_u16(&g, flags);
        if (s->tail != OFFSET)
            pg_idx(&g, PG_BONE, s->tail);
        else
            pg_f3(&g, s->tx, s->ty, s->tz);
        if (s->ik_target >= 0) {
            pg_idx(&g, PG_BONE, s->ik_target);
            pg_i32(&g, 40);
            pg_f32(&g, 2.0f);
            int n = s->links[1] >= 0 ? 2 : 1;
            pg_i32(&g, n);
            for (int k = 0; k < n; k++) {
                pg_idx(&g, PG_BONE, s->links[k]);
                pg_u8(&g, 0);
            }
        }
    }
    pg_i32(&g, 0); /* morphs */
    pg_i32(&g, 0); /* display frames */
    pg_no_physics(&g);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g.b.data, g.b.len, &log);
    assert_non_null(m);
    assert_int_equal(m->nbones, NBONES);
    pk_log_free(&log);
    pk_buf_free(&g.b);
    return m;
}

static pk_model *figure_model(float (*shift)[3])
{
    return figure_model_as(shift, -1, NULL);
}

/* A pose: bone i moved by (x, y, z) and turned deg degrees about X. */
static void pose_bone(pk_pose *p, int i, float x, float y, float z, double deg)
{
    pk_pose_bone *b = pk_pose_push_bone(p);
    assert_non_null(b);
    b->name = tu_intern(p->names, FIG[i].name);
    b->pos[0] = x, b->pos[1] = y, b->pos[2] = z;
    b->rot[0] = (float)sin(deg * PI / 360.0);
    b->rot[1] = b->rot[2] = 0;
    b->rot[3] = (float)cos(deg * PI / 360.0);
}

typedef struct scene {
    pk_model *m;
    pk_doc doc[2];
    pk_rules *rules;
    pk_selection *body;
    pk_draw_options o;
} scene;

/* One pose (the left foot's IK goal raised by `lift`) on the figure; the
 * body: the standard groups, as the draw step passes them. */
static void scene_init(scene *s, float lift)
{
    memset(s, 0, sizeof *s);
    s->m = figure_model(NULL);
    pk_log log;
    pk_log_init(&log);
    s->rules = pk_rules_default(&log);
    assert_non_null(s->rules);
    s->body = pk_selection_parse(s->rules, "@root,@trunk,@head,@arms,@hands,@legs,@ik", &log);
    assert_non_null(s->body);
    pk_log_free(&log);
    s->doc[0].format = PK_FMT_VPD;
    s->doc[0].pose = pk_pose_new();
    pose_bone(s->doc[0].pose, IK_L, 0, lift, -1, 0);
    s->o.a.model = s->m;
    s->o.a.doc = &s->doc[0];
    s->o.a.name = "pose.vpd";
    s->o.a.model_name = "figure.pmx";
    s->o.body = s->body;
    s->o.view = PK_VIEW_FRONT;
}

static void scene_free(scene *s)
{
    pk_doc_free(&s->doc[0]);
    pk_doc_free(&s->doc[1]);
    pk_selection_free(s->body);
    pk_rules_free(s->rules);
    pk_model_free(s->m);
}

/* The drawing's SVG (or JSON) as a string; NULL when pk_draw failed (the
 * log holds why). */
static char *render(const pk_draw_options *o, bool json, pk_log *log)
{
    pk_drawing *d = pk_draw(o, log);
    if (!d)
        return NULL;
    pk_buf b;
    pk_buf_init(&b);
    assert_int_equal(json ? pk_draw_json(d, &b) : pk_draw_svg(d, &b), 0);
    pk_buf_putc(&b, '\0');
    pk_drawing_free(d);
    char *s = malloc(b.len);
    assert_non_null(s);
    memcpy(s, b.data, b.len);
    pk_buf_free(&b);
    return s;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The element of class cls whose hover title is exactly `title` (up to
 * the end of the title or a " (" after the name); NULL when none. */
static const char *element(const char *svg, const char *cls, const char *title)
{
    char open[64];
    snprintf(open, sizeof open, "class=\"%s\"", cls);
    for (const char *p = strstr(svg, open); p; p = strstr(p + 1, open)) {
        const char *t = strstr(p, "<title>");
        const char *next = strstr(p + 1, "class=\"");
        if (!t || (next && next < t))
            continue;
        t += strlen("<title>");
        size_t n = strlen(title);
        if (strncmp(t, title, n) == 0 && (t[n] == '<' || t[n] == ' ' || t[n] == ':'))
            return p;
    }
    return NULL;
}

static double attr(const char *elem, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(elem, key);
    assert_non_null(p);
    return atof(p + strlen(key));
}

/* ---- the JSON: where the evaluator puts every bone ---- */

static void json_is_the_evaluation(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 2.0f);
    pose_bone(s.doc[0].pose, CENTRE, 0.5f, 0.5f, 0, 0);
    pk_log log;
    pk_log_init(&log);
    char *json = render(&s.o, true, &log);
    assert_non_null(json);
    /* the same evaluation by hand: the rig on the pose */
    pk_rig *r = pk_rig_new(s.m, &log);
    pk_bone_local loc[NBONES];
    pk_bone_world w[NBONES];
    pk_rig_pose_local(r, s.doc[0].pose, loc);
    pk_rig_eval(r, loc, NULL, 0, w);
    for (int i = 0; i < NBONES; i++) {
        char key[128];
        snprintf(key, sizeof key, "{\"name\":\"%s\",\"pos\":[", FIG[i].name);
        const char *p = strstr(json, key);
        assert_non_null(p);
        p += strlen(key);
        for (int a = 0; a < 3; a++) {
            char *end;
            double v = strtod(p, &end);
            assert_true(fabs(v - w[i].pos[a]) < 1e-5);
            p = end + 1;
        }
    }
    /* センター moved by (0.5, 0.5, 0) from (0, 8, 0); the left ankle on
     * its raised goal (1, 3, -1) */
    assert_non_null(strstr(json, "{\"name\":\"センター\",\"pos\":[0.5,8.5,0.0]"));
    assert_true(fabs(w[ANKLE_L].pos[1] - 3.0) < 1e-3 && fabs(w[ANKLE_L].pos[2] + 1.0) < 1e-3);
    assert_non_null(strstr(json, "\"name\":\"左足ＩＫ\""));
    assert_non_null(strstr(json, "\"ik\":true"));
    pk_rig_free(r);
    free(json);
    pk_log_free(&log);
    scene_free(&s);
}

/* ---- control bones and IK goals ---- */

static void controls_are_marks(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    pk_log log;
    pk_log_init(&log);
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    /* no line for a handle: センター's pole through the floor, 全ての親's
     * line from the origin, the IK parents' along the floor, グルーブ's */
    static const int CONTROL[] = {ROOT, CENTRE, GROOVE, IKP_L, IKP_R};
    for (size_t k = 0; k < sizeof CONTROL / sizeof CONTROL[0]; k++) {
        assert_null(element(svg, "bone", FIG[CONTROL[k]].name));
        assert_non_null(element(svg, "control", FIG[CONTROL[k]].name));
    }
    assert_int_equal(count(svg, "<rect class=\"control\""), 5);
    /* the body is lines: 下半身, 上半身, the legs, 首, the shoulders */
    static const int BODY[] = {LOWER, UPPER,  NECK,    HEAD,  SHOULDER_L, SHOULDER_R,
                               HIP_L, KNEE_L, ANKLE_L, HIP_R, KNEE_R,     ANKLE_R};
    for (size_t k = 0; k < sizeof BODY / sizeof BODY[0]; k++)
        assert_non_null(element(svg, "bone", FIG[BODY[k]].name));
    /* the leg IK goals green, the hair's small and grey */
    assert_non_null(element(svg, "ik", "左足ＩＫ"));
    assert_non_null(element(svg, "ik", "右足ＩＫ"));
    assert_null(element(svg, "ik", "左髪ＩＫ"));
    const char *hair = element(svg, "ik-other", "左髪ＩＫ");
    assert_non_null(hair);
    assert_non_null(strstr(hair, "stroke=\"#999999\""));
    /* the legend names each kind drawn */
    assert_non_null(strstr(svg, ">IK goal of hair or clothes<"));
    assert_non_null(strstr(svg, ">control bone (センター, 全ての親, IK parent): its place<"));
    /* nothing reaches below the floor: the ground is the panel's lowest
     * line (pad 14 px under it), as the pole no longer stretches it */
    const char *ground = strstr(svg, "class=\"ground\"");
    assert_non_null(ground);
    double floor_y = attr(ground, "y1");
    const char *panel = strstr(svg, "stroke=\"#e0e0e0\"");
    assert_non_null(panel);
    while (panel > svg && strncmp(panel, "<rect", 5) != 0)
        panel--;
    double bottom = attr(panel, "y") + attr(panel, "height");
    assert_true(bottom - floor_y < 15.0);
    free(svg);
    pk_log_free(&log);
    scene_free(&s);
}

/* Without 上半身 (a model that names it otherwise), センター, グルーブ and
 * 全ての親 are still handles, by name; the IK parents by structure. */
static void controls_by_name(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    pk_model_free(s.m);
    s.m = figure_model_as(NULL, UPPER, "胴");
    s.o.a.model = s.m;
    pk_log log;
    pk_log_init(&log);
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    static const int CONTROL[] = {ROOT, CENTRE, GROOVE, IKP_L, IKP_R};
    for (size_t k = 0; k < sizeof CONTROL / sizeof CONTROL[0]; k++)
        assert_null(element(svg, "bone", FIG[CONTROL[k]].name));
    assert_int_equal(count(svg, "<rect class=\"control\""), 5);
    assert_non_null(element(svg, "bone", "胴"));
    free(svg);
    pk_log_free(&log);
    scene_free(&s);
}

/* ---- connectors ---- */

static void connectors_hold_the_figure(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    pk_log log;
    pk_log_init(&log);
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    /* 上半身2 has no tail (a dot): its three children hang from it; the
     * legs hang from 下半身's sides, off its downward tail */
    static const char *const LINKS[] = {"上半身2 - 首", "上半身2 - 左肩", "上半身2 - 右肩",
                                        "下半身 - 左足", "下半身 - 右足"};
    for (size_t k = 0; k < sizeof LINKS / sizeof LINKS[0]; k++)
        assert_non_null(element(svg, "link", LINKS[k]));
    /* and nothing else: a child at its parent's tail (ひざ, 足首, 頭,
     * 上半身2 at 上半身's) or under a control bone (上半身 and 下半身 under
     * グルーブ) needs none; hair is not body */
    assert_int_equal(count(svg, "class=\"link\""), 5);
    /* 上半身2's links start at its joint; 下半身's at the nearest point of
     * its line (x = 0, between y 10 and 8.5) and end at the hip */
    const char *j = element(svg, "joint", "上半身2");
    const char *l = element(svg, "link", "上半身2 - 左肩");
    assert_non_null(j);
    assert_true(fabs(attr(l, "x1") - attr(j, "cx")) < 0.11);
    assert_true(fabs(attr(l, "y1") - attr(j, "cy")) < 0.11);
    const char *lower = element(svg, "bone", "下半身");
    const char *hip = element(svg, "joint", "左足");
    l = element(svg, "link", "下半身 - 左足");
    assert_true(fabs(attr(l, "x1") - attr(lower, "x1")) < 0.11);
    assert_true(attr(l, "y1") >= attr(lower, "y1") - 0.11 &&
                attr(l, "y1") <= attr(lower, "y2") + 0.11);
    assert_true(fabs(attr(l, "x2") - attr(hip, "cx")) < 0.11);
    assert_true(fabs(attr(l, "y2") - attr(hip, "cy")) < 0.11);
    free(svg);
    pk_log_free(&log);
    scene_free(&s);
}

/* ---- --vs: the difference as drawn ---- */

static void parse_colour(const char *elem, int rgb[3])
{
    const char *p = strstr(elem, "stroke=\"#");
    assert_non_null(p);
    unsigned v = (unsigned)strtoul(p + strlen("stroke=\"#"), NULL, 16);
    rgb[0] = (int)(v >> 16 & 0xFF), rgb[1] = (int)(v >> 8 & 0xFF), rgb[2] = (int)(v & 0xFF);
}

static void vs_shades_what_is_drawn(void **state)
{
    (void)state;
    /* the same keys (every leg bone at rest), the left IK goal higher in
     * the second pose: the knees differ as drawn, not as keyed */
    scene s;
    scene_init(&s, 2.0f);
    s.doc[1].format = PK_FMT_VPD;
    s.doc[1].pose = pk_pose_new();
    pose_bone(s.doc[1].pose, IK_L, 0, 4.0f, -1, 0);
    s.o.b.model = s.m;
    s.o.b.doc = &s.doc[1];
    s.o.b.name = "other.vpd";
    s.o.b.model_name = "figure.pmx";
    pk_log log;
    pk_log_init(&log);
    char *json = render(&s.o, true, &log);
    assert_non_null(json);
    const char *knee = strstr(json, "{\"name\":\"左ひざ\"");
    assert_non_null(knee);
    const char *kd = strstr(knee, "\"diff_deg\":"), *dd = strstr(knee, "\"drawn_diff_deg\":");
    assert_non_null(kd);
    assert_non_null(dd);
    double keyed = atof(kd + strlen("\"diff_deg\":")),
           drawn = atof(dd + strlen("\"drawn_diff_deg\":"));
    printf("左ひざ: keys %.3f deg apart, drawn %.3f deg apart\n", keyed, drawn);
    assert_true(keyed < 1e-6);
    assert_true(drawn > 10.0);
    /* the right leg, alike in both: 0 either way */
    const char *rk = strstr(json, "{\"name\":\"右ひざ\"");
    assert_true(atof(strstr(rk, "\"drawn_diff_deg\":") + strlen("\"drawn_diff_deg\":")) < 1e-6);
    free(json);

    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    /* hover and legend give the drawn difference */
    assert_non_null(strstr(svg, "deg apart as drawn (keys 0.00 deg)</title>"));
    assert_null(strstr(svg, ">0.00 deg<"));
    /* the vs figure in its sides' colours: the left knee (differs) blue
     * and darker than the right knee (alike), light red; the centre grey */
    int lk[3], rkc[3], up[3];
    parse_colour(element(svg, "vsbone", "左ひざ"), lk);
    parse_colour(element(svg, "vsbone", "右ひざ"), rkc);
    parse_colour(element(svg, "vsbone", "上半身"), up);
    assert_true(lk[2] > lk[0] + 60);                                     /* blue */
    assert_true(lk[0] + lk[1] + lk[2] < rkc[0] + rkc[1] + rkc[2] - 150); /* darker */
    assert_true(rkc[0] > rkc[2] + 20 && rkc[1] > 180);                   /* red, light */
    assert_true(up[0] == up[1] && up[1] == up[2] && up[0] > 180);        /* grey, light */
    free(svg);
    pk_log_free(&log);
    scene_free(&s);
}

/* ---- the canvas follows the drawing ---- */

static void canvas_fits_the_drawing(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    s.doc[1].format = PK_FMT_VPD;
    s.doc[1].pose = pk_pose_new();
    s.o.b.model = s.m;
    s.o.b.doc = &s.doc[1];
    s.o.a.name = "/a/long/folder/where/the/dances/are/kept/a_rather_long_pose_name.vpd";
    s.o.a.model_name = "/another/long/folder/for/the/models/figure_model_with_a_long_name.pmx";
    s.o.b.name = "/a/third/folder/somewhere_else/second_pose_with_a_long_name.vpd";
    s.o.b.model_name = "/a/fourth/folder/second_model_of_the_comparison.pmx";
    pk_log log;
    pk_log_init(&log);
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    int width = atoi(strstr(svg, "width=\"") + strlen("width=\""));
    const char *panel = strstr(svg, "stroke=\"#e0e0e0\"");
    while (strncmp(panel, "<rect", 5) != 0)
        panel--;
    double pw = attr(panel, "width");
    printf("picture %d px wide, its drawing %.1f px\n", width, pw);
    assert_true(width <= fmax(pw, 400) + 30);
    /* the title: file names without folders, in lines that fit */
    size_t lines = 0;
    char all[2048] = "";
    for (const char *p = strstr(svg, "font-weight=\"bold\">"); p;
         p = strstr(p + 1, "font-weight=\"bold\">")) {
        p += strlen("font-weight=\"bold\">");
        size_t n = (size_t)(strchr(p, '<') - p);
        assert_true(10 + 0.56 * 15 * (double)n <= width);
        strncat(all, p, n < sizeof all - strlen(all) - 2 ? n : 0);
        strcat(all, " ");
        lines++;
    }
    assert_true(lines >= 2);
    assert_null(strchr(all, '/'));
    assert_non_null(strstr(all, "a_rather_long_pose_name.vpd"));
    assert_non_null(strstr(all, "second_model_of_the_comparison.pmx"));
    /* every text line ends inside the picture (a word too long for a line
     * is broken: a picture never widens for its text) */
    free(svg);
    s.o.a.name = "a_single_file_name_far_too_long_for_any_line_of_the_picture_so_it_breaks.vpd";
    svg = render(&s.o, false, &log);
    assert_non_null(svg);
    int w2 = atoi(strstr(svg, "width=\"") + strlen("width=\""));
    assert_true(w2 <= fmax(pw, 400) + 30);
    free(svg);
    pk_log_free(&log);
    scene_free(&s);
}

/* ---- frames, selections, positions ---- */

static pk_motion *lift_motion(uint32_t last)
{
    pk_motion *mo = pk_motion_new();
    assert_non_null(mo);
    for (int k = 0; k < 2; k++) {
        pk_bone_key *b = pk_motion_push_bone(mo);
        assert_non_null(b);
        b->name = tu_intern(mo->names, FIG[IK_L].name);
        b->frame = k ? last : 0;
        b->pos[1] = k ? 3.0f : 0.0f;
        b->rot[3] = 1;
        pk_interp_linear(b->interp);
    }
    return mo;
}

static void frames_and_selections(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    pk_pose_free(s.doc[0].pose);
    s.doc[0].pose = NULL;
    s.doc[0].format = PK_FMT_VMD;
    s.doc[0].motion = lift_motion(100);
    pk_log log;
    pk_log_init(&log);
    /* about 8 figures, the last at the range's end */
    s.o.range = true;
    s.o.first = 0, s.o.last = 100, s.o.every = 0;
    pk_drawing *d = pk_draw(&s.o, &log);
    assert_non_null(d);
    assert_int_equal(pk_drawing_figures(d), 8);
    pk_drawing_free(d);
    /* past the last key: warned, stopped there */
    s.o.last = 1000, s.o.every = 50;
    d = pk_draw(&s.o, &log);
    assert_non_null(d);
    assert_int_equal(pk_drawing_figures(d), 3);
    pk_drawing_free(d);
    tu_assert_log_has(&log, "run past the last key of pose.vpd (frame 100)");
    /* wholly after it, or more than 60 figures: errors */
    s.o.first = 200, s.o.last = 300;
    assert_null(pk_draw(&s.o, &log));
    tu_assert_log_has(&log, "lie after the last key");
    s.o.first = 0, s.o.last = 100, s.o.every = 1;
    assert_null(pk_draw(&s.o, &log));
    tu_assert_log_has(&log, "more than 60 figures");
    s.o.range = false;
    s.o.frame = 50;
    /* a selection that leaves nothing to draw */
    pk_selection *sel = pk_selection_parse(s.rules, "存在しない", &log);
    s.o.bones = sel;
    s.o.bones_spec = "存在しない";
    assert_null(pk_draw(&s.o, &log));
    tu_assert_log_has(&log, "matches no bone of figure.pmx: nothing to draw");
    pk_selection_free(sel);
    sel = pk_selection_parse(s.rules, "髪先", &log);
    s.o.bones = sel;
    s.o.bones_spec = "髪先";
    assert_null(pk_draw(&s.o, &log));
    tu_assert_log_has(&log, "none of them visible");
    pk_selection_free(sel);
    /* a selection draws its bones only: no link to a parent not drawn */
    sel = pk_selection_parse(s.rules, "左足,左ひざ", &log);
    s.o.bones = sel;
    s.o.bones_spec = "左足,左ひざ";
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    assert_int_equal(count(svg, "class=\"bone\""), 2);
    assert_int_equal(count(svg, "class=\"link\""), 0);
    assert_null(strstr(svg, "class=\"control\""));
    free(svg);
    pk_selection_free(sel);
    s.o.bones = NULL;
    pk_log_free(&log);
    scene_free(&s);
}

static void unplaced_bones_left_out(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    float shift[NBONES][3] = {{0}};
    shift[HAIR][0] = NAN;
    pk_model_free(s.m);
    pk_log log;
    pk_log_init(&log);
    s.m = figure_model(shift);
    s.o.a.model = s.m;
    char *svg = render(&s.o, false, &log);
    assert_non_null(svg);
    assert_null(strstr(svg, "nan"));
    assert_null(element(svg, "bone", "髪"));
    /* 髪 and 髪先 under it have none; 髪先 is hidden, so one is drawn */
    assert_non_null(strstr(svg, "left out: 1 bone without a position"));
    free(svg);
    char *json = render(&s.o, true, &log);
    assert_non_null(strstr(json, "{\"name\":\"髪\",\"pos\":[null,"));
    assert_non_null(strstr(json, "{\"name\":\"髪先\",\"pos\":[null,"));
    free(json);
    pk_log_free(&log);
    scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_is_the_evaluation),  cmocka_unit_test(controls_are_marks),
        cmocka_unit_test(controls_by_name),        cmocka_unit_test(connectors_hold_the_figure),
        cmocka_unit_test(vs_shades_what_is_drawn), cmocka_unit_test(canvas_fits_the_drawing),
        cmocka_unit_test(frames_and_selections),   cmocka_unit_test(unplaced_bones_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
