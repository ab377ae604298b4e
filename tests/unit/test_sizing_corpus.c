/* test_sizing_corpus.c — the elbow and knee law of retarget's sizing
 * steps on every frame of every corpus dance (every VMD with bone keys)
 * and every ordered pair of the corpus's full models (Gene PMX and PMD,
 * the classic skeleton, mmt, Mei, SD Mei): no sizing step bends an
 * elbow further past its rest bend plane than stance and scale left it,
 * where it ends past it beyond the source's (pk_sizing_measure's
 * elbow_worse, measured at every frame against the source playing the
 * input), and no knee is past it at all.  The contact measures hold no
 * goal here (the table, tests/bench/sizing_table.py, shows them); this
 * holds the law. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const MODELS[] = {
    "pmx_gene.pmx",           "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx",
    "pmx_mmt_test_model.pmx", "pmd_mei.pmd",  "pmd_sd_mei.pmd"};
enum { NM = sizeof MODELS / sizeof *MODELS };

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
    char **paths;
    size_t np = tu_corpus_list(".vmd", &paths), dances = 0;
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
                if (a == b)
                    continue;
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
    tu_free_list(paths, np);
    for (int i = 0; i < NM; i++)
        pk_model_free(m[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(law_every_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
