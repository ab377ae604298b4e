/*
 * bench_camera_bound.c — the camera's certified bound: for each frame
 * asked, whether any camera can put B's head, hands and feet within the
 * goal of where A's were (pki_camera_certify, a branch and bound over the
 * rotations, engine/ops/retarget/retarget_certify.c says what it proves).
 * A check, not a timing: it prints, per frame, "out" (proved out of
 * reach: no rotation, eye with the points in front, view angle from 1° to
 * 125° puts every point within the goal of A's on the disc), "reach" (a
 * camera found, its view angle a whole degree, within the goal on the
 * disc) or "open" (neither within the budget), and the counts.
 * --squares: the squares of side 2·goal only, without the disc's cones
 * (what the bound was before them; for comparison).
 * Each frame is first given to the report's own search
 * (pki_camera_search, from MMD's default camera): a camera it finds
 * within the goal is a witness ("reach ... by the search", no cubes);
 * else the cubes, and where they leave the frame open, the search again
 * from the last 8 of the deepest cubes not ruled out (pki_camera_search_at).  Every
 * witness is reprojected here before it counts.  --no-search: the cubes
 * alone.  --lens D: the view angle within D degrees of the original
 * camera's at the frame (not 1° to 125°; the cubes alone, their witness
 * at such a view angle): whether a camera that keeps the camera's lens,
 * or changes it by D at most, can meet the goal.
 *
 * usage: bench_camera_bound CAMERA.vmd MODEL_A DANCE_A MODEL_B DANCE_B
 *                           [--frames A-B,C,...] [--budget CELLS] [--goal G] [--squares]
 *                           [--no-search] [--lens D] [--quiet]
 * DANCE_B: the dance as retargeted for B (posekit retarget DANCE_A --from
 * MODEL_A --to MODEL_B -o DANCE_B, the options the camera's run had);
 * MODEL_A may be a built-in body (@classic).  Frames: every measured frame
 * unless told.
 */
#include "ops/retarget/retarget.h"
#include "bench_util.h"
#include "posekit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether frame f is in the list ("A-B,C"; NULL: every frame). */
static bool listed(const char *list, uint32_t f)
{
    if (!list)
        return true;
    const char *p = list;
    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            return false;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        if (f >= a && f <= b)
            return true;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return false;
}

/* The largest distance of fr's points from A's through the camera r
 * (projected here; INFINITY where a point is not 0.05 in front). */
static double reprojected(const pki_cert_result *r, const pki_cert_frame *fr)
{
    double f = 1 / (2 * tan(r->fov * 3.14159265358979323846 / 360)), worst = 0;
    for (int i = 0; i < fr->n; i++) {
        double q[3];
        for (int a = 0; a < 3; a++)
            q[a] = r->Q[a][0] * (fr->pb[i][0] - r->eye[0]) +
                   r->Q[a][1] * (fr->pb[i][1] - r->eye[1]) + r->Q[a][2] * (fr->pb[i][2] - r->eye[2]);
        if (!(q[2] > 0.05))
            return INFINITY;
        worst = fmax(worst, hypot(f * q[0] / q[2] - fr->sa[i][0], f * q[1] / q[2] - fr->sa[i][1]));
    }
    return worst;
}

int main(int argc, char **argv)
{
    const char *frames = NULL;
    long budget = 200000;
    double goal = PK_CAMERA_GOAL;
    bool quiet = false, squares = false, search = true;
    double lens = -1;
    const char *pos[5];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = argv[++i];
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--goal") && i + 1 < argc)
            goal = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--quiet"))
            quiet = true;
        else if (!strcmp(argv[i], "--squares"))
            squares = true;
        else if (!strcmp(argv[i], "--no-search"))
            search = false;
        else if (!strcmp(argv[i], "--lens") && i + 1 < argc)
            lens = strtod(argv[++i], NULL), search = false;
        else if (npos < 5)
            pos[npos++] = argv[i];
        else
            npos = 6;
    }
    if (npos != 5) {
        fprintf(stderr, "usage: bench_camera_bound CAMERA.vmd MODEL_A DANCE_A MODEL_B DANCE_B "
                        "[--frames A-B,C,...] [--budget CELLS] [--goal G] [--squares] [--no-search] "
                        "[--lens D] [--quiet]\n");
        return 2;
    }
    pk_log log;
    pk_log_init(&log);
    const char *me = "bench_camera_bound";
    pk_motion *cam = bench_load_motion(me, pos[0], &log);
    pk_motion *da = bench_load_motion(me, pos[2], &log), *db = bench_load_motion(me, pos[4], &log);
    pk_model *a = pk_model_load(pos[1], &log), *b = pk_model_load(pos[3], &log);
    pki_cert_frame *fr = NULL;
    pk_tracks *tr = NULL;
    uint32_t nf = 0;
    int rc = 2;
    if (!cam || !da || !db || !a || !b)
        goto done;
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    if (pki_camera_frames(cam, &o, &fr, &nf, &log) != 0)
        goto done;
    if (lens >= 0 && !(tr = pk_tracks_build(cam, &log)))
        goto done;
    long n[3] = {0, 0, 0}, cells = 0;
    /* MMD's default camera: the search's start (its closed form and extra
     * starts do not depend on it but for the view angle) */
    pk_camera_key start;
    memset(&start, 0, sizeof start);
    start.distance = -45, start.pos[1] = 10, start.fov = 30;
    for (uint32_t f = 0; f < nf; f++) {
        if (!fr[f].n || !listed(frames, f))
            continue;
        pki_cert_result res;
        const char *how = "";
        /* the report's search first (a camera it finds is a witness,
         * reprojected below), then the cubes, then the search again from
         * the deepest cubes they leave open */
        if (search && goal == PK_CAMERA_GOAL) {
            if (pki_camera_search(&fr[f], &start, &res) != 0)
                goto done;
            how = " by the search";
        }
        if (!search || goal != PK_CAMERA_GOAL || res.verdict != PKI_CERT_REACH) {
            double lo = 1.0, hi = 125.0;
            pk_camera_key k;
            if (lens >= 0 && pk_sample_camera(cam, tr, f, &k)) {
                lo = fmax(1.0, (double)k.fov - lens);
                hi = fmin(125.0, (double)k.fov + lens);
            }
            if (pki_camera_certify_shape(&fr[f], goal, lo, hi, budget, !squares, &res) != 0)
                goto done;
            how = "";
            long nd = res.ndeep < PKI_CERT_DEEP ? res.ndeep : PKI_CERT_DEEP;
            for (long d = 0; search && goal == PK_CAMERA_GOAL && res.verdict == PKI_CERT_OPEN &&
                             d < nd;
                 d++) {
                pki_cert_result near;
                if (pki_camera_search_at(&fr[f], (const double(*)[3])res.deep_Q[d], &near) == 0 &&
                    near.verdict == PKI_CERT_REACH) {
                    near.cells = res.cells;
                    res = near;
                    how = " by the search from a deepest open cube";
                }
            }
        }
        if (res.verdict == PKI_CERT_REACH && !(reprojected(&res, &fr[f]) <= goal)) {
            fprintf(stderr, "bench_camera_bound: frame %u: the witness misses on reprojection\n", f);
            goto done;
        }
        n[res.verdict]++;
        cells += res.cells;
        if (quiet)
            continue;
        static const char *const name[3] = {"out", "reach", "open"};
        printf("%u %s %ld cells", f, name[res.verdict], res.cells);
        if (res.verdict == PKI_CERT_REACH)
            printf(" (%.2f%% at %.0f deg%s)", 100 * res.worst, res.fov, how);
        printf("\n");
    }
    printf("proved out of reach %ld, reachable %ld, open %ld (%ld cells)\n", n[PKI_CERT_OUT],
           n[PKI_CERT_REACH], n[PKI_CERT_OPEN], cells);
    rc = 0;
done:
    for (size_t i = 0; i < log.count; i++)
        fprintf(stderr, "bench_camera_bound: %s\n", log.items[i].msg);
    free(fr);
    pk_tracks_free(tr);
    pk_motion_free(cam);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_model_free(a);
    pk_model_free(b);
    pk_log_free(&log);
    return rc;
}
