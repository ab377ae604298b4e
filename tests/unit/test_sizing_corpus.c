/* test_sizing_corpus.c — the elbow and knee law of retarget's sizing
 * steps on every frame of every corpus dance (every VMD with bone keys)
 * and every ordered pair of the corpus's full models (Gene PMX and PMD,
 * the classic skeleton, mmt, Mei, SD Mei): no sizing step bends an
 * elbow further past its rest bend plane than stance and scale left it,
 * where it ends past it beyond the source's (pk_sizing_measure's
 * elbow_worse, measured at every frame against the source playing the
 * input), and no knee is past it at all.  The contact measures hold no
 * goal here (the table, tests/bench/sizing_table.py, shows them); this
 * holds the law.
 *
 * A sanitizer build (PK_SANITIZED set) runs the triples of SANITIZED
 * alone: the plain build holds the law on every triple, and these cover
 * every line and branch of the engine that all the triples together
 * cover (tests/unit/sizing_cover.py chose them, greedily, from gcov's
 * counts of each triple; run it again when the sizing steps change), so
 * the sanitizers still see every path.  PK_SIZING_ONLY="DANCE:FROM:TO"
 * (corpus file names) runs that one triple (sizing_cover.py's runs). */
#include "testutil.h"
#include "math/quat.h"
#include "ops/skeleton/figure.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const MODELS[] = {
    "pmx_gene.pmx",           "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx",
    "pmx_mmt_test_model.pmx", "pmd_mei.pmd",  "pmd_sd_mei.pmd"};
enum { NM = sizeof MODELS / sizeof *MODELS };

/* The sanitizer build's triples: dance, from, to, as sizing_cover.py
 * printed them (the first 31 cover every line and branch direction that
 * the 300 triples cover, 16,073, about 29 % of their time; the last three
 * read the dances no other uses). */
static const char *const SANITIZED[][3] = {
    {"vmd_imas_face16.vmd", "pmx_gene.pmx", "pmd_mei.pmd"},
    {"vmd_imas_azusa_bow1.vmd", "pmx_nanoem_miku_bones.pmx", "pmd_mei.pmd"},
    {"vmd_babylon_physics_toggle_yyb10th.vmd", "pmx_mmt_test_model.pmx",
     "pmx_nanoem_miku_bones.pmx"},
    {"vmd_imas_azusa_bow1.vmd", "pmd_sd_mei.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_mmd4unity_IK_Test.vmd", "pmx_mmt_test_model.pmx", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_mmdtools_test.vmd", "pmx_mmt_test_model.pmx", "pmd_mei.pmd"},
    {"vmd_imas_face16.vmd", "pmd_gene.pmd", "pmx_gene.pmx"},
    {"vmd_imas_azusa_bow1.vmd", "pmx_nanoem_miku_bones.pmx", "pmx_mmt_test_model.pmx"},
    {"vmd_mmdagent_stand.vmd", "pmd_gene.pmd", "pmx_gene.pmx"},
    {"vmd_wavefile_v2.vmd", "pmd_mei.pmd", "pmd_sd_mei.pmd"},
    {"vmd_imas_azusa_bow1.vmd", "pmd_sd_mei.pmd", "pmd_mei.pmd"},
    {"vmd_mmdtools_test.vmd", "pmd_mei.pmd", "pmx_mmt_test_model.pmx"},
    {"vmd_wavefile_v2.vmd", "pmx_mmt_test_model.pmx", "pmd_mei.pmd"},
    {"vmd_imas_azusa_bow1.vmd", "pmx_mmt_test_model.pmx", "pmd_sd_mei.pmd"},
    {"vmd_mmdtools_test.vmd", "pmx_nanoem_miku_bones.pmx", "pmx_gene.pmx"},
    {"vmd_imas_face16.vmd", "pmx_gene.pmx", "pmx_mmt_test_model.pmx"},
    {"vmd_mmdagent_stand.vmd", "pmx_mmt_test_model.pmx", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_imas_azusa_bow1.vmd", "pmd_sd_mei.pmd", "pmx_gene.pmx"},
    {"vmd_wavefile_v2.vmd", "pmd_sd_mei.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_mmdagent_stand.vmd", "pmd_sd_mei.pmd", "pmx_mmt_test_model.pmx"},
    {"vmd_babylon_physics_toggle_yyb10th.vmd", "pmx_mmt_test_model.pmx", "pmx_gene.pmx"},
    {"vmd_mmdtools_test.vmd", "pmx_gene.pmx", "pmd_gene.pmd"},
    {"vmd_mmdagent_stand.vmd", "pmd_mei.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_mmdagent_stand.vmd", "pmd_sd_mei.pmd", "pmd_mei.pmd"},
    {"vmd_mmdtools_test.vmd", "pmd_mei.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_wavefile_v2.vmd", "pmd_gene.pmd", "pmx_mmt_test_model.pmx"},
    {"vmd_wavefile_v2.vmd", "pmd_sd_mei.pmd", "pmd_mei.pmd"},
    {"vmd_wavefile_v2.vmd", "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_wavefile_v2.vmd", "pmd_sd_mei.pmd", "pmx_mmt_test_model.pmx"},
    {"vmd_wavefile_v2.vmd", "pmx_mmt_test_model.pmx", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_wavefile_v2.vmd", "pmx_mmt_test_model.pmx", "pmx_gene.pmx"},
    {"vmd_babylon_physics_toggle_v2_yyb10th.vmd", "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx"},
    {"vmd_vmd2xml_newvmd_mmd739m.vmd", "pmd_gene.pmd", "pmd_sd_mei.pmd"},
    {"vmd_yohawing_joint_orient_test.vmd", "pmx_gene.pmx", "pmd_gene.pmd"},
};
enum { NSAN = sizeof SANITIZED / sizeof *SANITIZED };

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Whether the triple (dance, MODELS[a], MODELS[b]) is to run: every
 * triple, those of SANITIZED, or the one of PK_SIZING_ONLY. */
static bool chosen(const char *dance, int a, int b, bool sampled, const char *only)
{
    if (only && *only) {
        char want[512];
        snprintf(want, sizeof want, "%s:%s:%s", dance, MODELS[a], MODELS[b]);
        return strcmp(want, only) == 0;
    }
    if (!sampled)
        return true;
    for (int i = 0; i < NSAN; i++)
        if (strcmp(SANITIZED[i][0], dance) == 0 && strcmp(SANITIZED[i][1], MODELS[a]) == 0 &&
            strcmp(SANITIZED[i][2], MODELS[b]) == 0)
            return true;
    return false;
}

static pk_model *model(const char *name)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(tu_corpus_path(name), &log);
    pk_log_free(&log);
    assert_non_null(m);
    return m;
}

static void law_every_pair(void **state)
{
    (void)state;
    if (!tu_corpus_path("pmx_gene.pmx"))
        skip();
    pk_model *m[NM];
    for (int i = 0; i < NM; i++)
        m[i] = model(MODELS[i]);
    const char *only = getenv("PK_SIZING_ONLY"), *san = getenv("PK_SANITIZED");
    bool sampled = san && *san;
    char **paths;
    size_t np = tu_corpus_list(".vmd", &paths), dances = 0, ran = 0;
    for (size_t d = 0; d < np; d++) {
        pk_log log;
        pk_log_init(&log);
        pk_doc doc;
        assert_int_equal(pk_doc_load(paths[d], &doc, &log), 0);
        pk_log_free(&log);
        if (!doc.motion || !doc.motion->nbones) {
            pk_doc_free(&doc);
            continue;
        }
        dances++;
        for (int a = 0; a < NM; a++)
            for (int b = 0; b < NM; b++) {
                if (a == b || !chosen(base_name(paths[d]), a, b, sampled, only))
                    continue;
                ran++;
                pk_motion *w = pk_motion_clone(doc.motion);
                assert_non_null(w);
                pk_retarget_options o = {.from = m[a], .to = m[b], .measure = true};
                pk_retarget_report rep;
                pk_log_init(&log);
                int rc = pk_motion_retarget_models(w, NULL, &o, NULL, &rep, &log);
                pk_log_free(&log);
                if (rc != 0)
                    fail_msg("%s: %s -> %s failed", paths[d], MODELS[a], MODELS[b]);
                const pk_sizing_measure *s = rep.measure;
                assert_non_null(s);
                if (s->elbow_worse || s->knee_past || s->knee_past_before)
                    fail_msg("%s: %s -> %s: elbows bent further past their rest plane on %zu "
                             "frames (past on %zu, %zu before the sizing steps), knees past on "
                             "%zu (%zu)",
                             paths[d], MODELS[a], MODELS[b], s->elbow_worse, s->elbow_past,
                             s->elbow_past_before, s->knee_past, s->knee_past_before);
                assert_true(s->elbow_frames > 0);
                pk_retarget_report_free(&rep);
                pk_motion_free(w);
            }
        pk_doc_free(&doc);
    }
    assert_true(dances >= 5);
    /* every chosen triple found: a sample naming a file the corpus lost
     * fails here rather than checking less */
    if (only && *only)
        assert_int_equal(ran, 1);
    else if (sampled)
        assert_int_equal(ran, NSAN);
    else
        assert_int_equal(ran, dances * NM * (NM - 1));
    tu_free_list(paths, np);
    for (int i = 0; i < NM; i++)
        pk_model_free(m[i]);
}

/* Every body of a part lies in the part's bounding sphere (its box's
 * centre, the box's half diagonal): a body's signed distance, out of it or
 * in, is at least the sphere's.  The avoid step leaves out the points
 * surely farther out of the sphere than the depth it asks for, which
 * gives the same results only while this holds, on every corpus model,
 * with the part placed anywhere. */
static void part_spheres_hold_bodies(void **state)
{
    (void)state;
    if (!tu_corpus_path("pmx_gene.pmx"))
        skip();
    unsigned long long seed = 12345;
    size_t checked = 0;
    for (int i = 0; i < NM; i++) {
        pk_model *m = model(MODELS[i]);
        pki_figure f;
        pki_figure_init(&f, m);
        for (int k = 0; k < PKI_PART_COUNT; k++) {
            const pki_part *pa = &f.part[k];
            if (pa->bone < 0 || !pa->nbody)
                continue;
            for (int n = 0; n < 2000; n++) {
                double u[8];
                for (int j = 0; j < 8; j++) {
                    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                    u[j] = (double)(seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
                }
                pki_placed pl = {.part = pa, .rot = {u[0], u[1], u[2], u[3] + 0.1}};
                double len = sqrt(pl.rot[0] * pl.rot[0] + pl.rot[1] * pl.rot[1] +
                                  pl.rot[2] * pl.rot[2] + pl.rot[3] * pl.rot[3]);
                for (int j = 0; j < 4; j++)
                    pl.rot[j] /= len;
                for (int j = 0; j < 3; j++)
                    pl.pos[j] = 10.0 * u[j];
                double c[3], v[3], q[3];
                pki_qd_rotate(pl.rot, pa->centre, v);
                double rad = sqrt(pa->half[0] * pa->half[0] + pa->half[1] * pa->half[1] +
                                  pa->half[2] * pa->half[2]);
                for (int j = 0; j < 3; j++) {
                    c[j] = pl.pos[j] + v[j];
                    /* in and around the sphere, out to twice its radius */
                    q[j] = c[j] + 2.0 * rad * u[4 + j] * fabs(u[7]);
                }
                double d[3] = {q[0] - c[0], q[1] - c[1], q[2] - c[2]};
                double out = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                double dist = pki_part_distance(&pl, q, NULL, NULL);
                if (dist < out - rad - 1e-12 * (out + rad + 1.0))
                    fail_msg("%s: part %d: a point %.17g from the sphere is %.17g from its "
                             "bodies",
                             MODELS[i], k, out - rad, dist);
                checked++;
            }
        }
        pk_model_free(m);
    }
    assert_true(checked >= 6 * 2000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(part_spheres_hold_bodies),
        cmocka_unit_test(law_every_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
