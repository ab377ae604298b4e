/* testutil.h — helpers shared by the cmocka suites (tests/unit/). */
#ifndef PK_TESTUTIL_H
#define PK_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

/* cmocka leaves a test by longjmp from a failed check, skip() or fail()
 * without telling the compiler; these say it (abort() is never reached),
 * so an optimised build's -Wnull-dereference knows that nothing after a
 * failed check runs. */
#define TU_LEAVES(call)                                                                            \
    do {                                                                                           \
        call;                                                                                      \
        abort();                                                                                   \
    } while (0)
#undef assert_non_null
#define assert_non_null(c)                                                                         \
    do {                                                                                           \
        const void *tu_c_ = (const void *)(c);                                                     \
        if (!tu_c_)                                                                                \
            TU_LEAVES(_assert_true(0, #c, __FILE__, __LINE__));                                    \
    } while (0)
#undef skip
#define skip() TU_LEAVES(_skip(__FILE__, __LINE__))
#undef fail
#define fail() TU_LEAVES(_fail(__FILE__, __LINE__))

#include "posekit.h"

/* Path of a corpus file (PK_CORPUS/name) in a static buffer, or NULL when
 * no corpus folder was configured.  Tests that need the corpus call
 * skip() when it is NULL: reported as skipped, never as passed. */
const char *tu_corpus_path(const char *name);
/* Every corpus file whose name ends with `ext` (".vmd" / ".vpd"), sorted;
 * returns the count, *paths a malloc'd array of malloc'd strings
 * (tu_free_list).  0 when there is no corpus. */
size_t tu_corpus_list(const char *ext, char ***paths);
void tu_free_list(char **paths, size_t n);
/* Reads a whole file into malloc'd memory (fails the test on error). */
uint8_t *tu_read_file(const char *path, size_t *len);
/* Writes len bytes to path (created or truncated); fails the test on error. */
void tu_write_file(const char *path, const void *data, size_t len);
/* A fresh empty temporary folder (fails the test on error); static buffer. */
const char *tu_tmpdir(void);
/* Asserts that the log holds an error whose formatted text contains `needle`. */
void tu_assert_log_has(const pk_log *log, const char *needle);
/* A UTF-8 name interned in t as its CP932 bytes (fails the test when it
 * has no CP932 form). */
pk_name_id tu_intern(pk_names *t, const char *utf8);
/* Appends a morph key (UTF-8 name, frame, weight) to m; fails the test
 * when it cannot. */
pk_morph_key *tu_morph_key(pk_motion *m, const char *utf8, uint32_t frame, float weight);
/* Appends a bone key (UTF-8 name, as a VMD holds it, at most 15 bytes;
 * frame) to m: no move, no turn, linear curves.  Fails the test when it
 * cannot. */
pk_bone_key *tu_bone_key(pk_motion *m, const char *utf8, uint32_t frame);
/* Fills *b as a plain bone of m named `name` (interned in m->names as
 * model readers do), child of `parent`, at rest position (x, y, z):
 * rotatable, movable, visible, no tail, append, IK or PMD kind.  The
 * caller owns *b and counts it in m->nbones. */
void tu_model_bone(pk_model *m, pk_model_bone *b, const char *name, int parent, double x, double y,
                   double z);
/* Rules parsed from YAML text as if read from a file named `path` (for
 * messages); fails the test on an error.  Free with pk_rules_free. */
pk_rules *tu_rules(const char *yaml, const char *path);

#endif
