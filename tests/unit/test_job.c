/* test_job.c — job files: a full pipeline on the samples, the result equal
 * to calling the operations directly (also for the check, reduce and bake
 * steps and model inputs), atomicity (an error in the last step
 * writes nothing, not even the outputs of earlier steps; a write failing
 * on the last output puts none in place), and JOB:LINE:COL
 * errors for mistakes in the job file. */
#include "pmxgen.h"
#include "testutil.h"
#include "posekit_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *sample(const char *name)
{
    static char buf[4][4096];
    static int k;
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        return NULL;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/samples/%s", src, name);
    return buf[k];
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Loads and runs the job at path, both of which must work. */
static pk_job *load_and_run(const char *path, pk_log *log)
{
    pk_job *j = pk_job_load(path, log);
    assert_non_null(j);
    assert_int_equal(pk_job_run(j, log), 0);
    return j;
}

static const char JOB[] = "inputs:\n"
                          "  dance: %s\n"
                          "  fist: %s\n"
                          "  peace: %s\n"
                          "steps:\n"
                          "  - overlay: {base: dance, pose: fist, bones: \"@fingers_R\", "
                          "frames: 30-60, fade: 6, out: a}\n"
                          "  - overlay: {base: a, pose: peace, bones: \"@fingers_R\", "
                          "frames: 90-120, fade: 6, out: b}\n"
                          "  - convert: {in: b, to: vpd, frame: 100, out: at100}\n"
                          "  - diff: {a: dance, b: b, frames: all, groups: true, out: report}\n"
                          "%s"
                          "outputs:\n"
                          "  b: out/b.vmd\n"
                          "  at100: out/at100.vpd\n"
                          "  report: out/report.txt\n";

/* Writes job.yaml into dir: the job text with the three sample paths
 * put in place of the first three "%s" and `extra` (more steps) in place
 * of the fourth. */
static void write_job(const char *dir, const char *extra)
{
    const char *parts[4] = {sample("dance.vmd"), sample("hands/right_fist.vpd"),
                            sample("hands/right_peace.vpd"), extra};
    char path[4096], text[8192];
    size_t w = 0, k = 0;
    for (const char *p = JOB; *p && w + 1 < sizeof text;) {
        if (p[0] == '%' && p[1] == 's' && k < 4) {
            w += (size_t)snprintf(text + w, sizeof text - w, "%s", parts[k++]);
            p += 2;
        } else {
            text[w++] = *p++;
        }
    }
    text[w] = '\0';
    snprintf(path, sizeof path, "%s/job.yaml", dir);
    write_text(path, text);
}

static void test_pipeline_matches_direct_calls(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    write_job(dir, "");
    char job[4096], out[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    pk_log log;
    pk_log_init(&log);
    pk_job *j = load_and_run(job, &log);
    snprintf(out, sizeof out, "%s/out/b.vmd", dir);
    assert_false(exists(out)); /* nothing before pk_job_write */
    assert_int_equal(pk_job_write(j, &log), 0);
    assert_true(exists(out));
    /* the step's summary is the one diff prints: 15 finger bones differ */
    assert_non_null(strstr(pk_job_report(j), "diff dance, b -> report: frames 0-"));
    assert_non_null(strstr(pk_job_report(j), ": 15 of "));
    /* the report file is diff's table; groups: true sums it up per group:
     * the 15 finger bones, not the wrist */
    char rep[4096];
    snprintf(rep, sizeof rep, "%s/out/report.txt", dir);
    size_t tlen;
    uint8_t *trep = tu_read_file(rep, &tlen);
    char *table = calloc(tlen + 1, 1);
    assert_non_null(table);
    memcpy(table, trep, tlen);
    assert_non_null(strstr(table, "15/15  @fingers_R"));
    assert_non_null(strstr(table, "15/16  @hand_R"));
    assert_null(strstr(table, "@arm_R"));
    free(table);
    free(trep);

    /* The same two overlays called directly give the same bytes. */
    pk_doc dance, fist, peace;
    assert_int_equal(pk_doc_load(sample("dance.vmd"), &dance, &log), 0);
    assert_int_equal(pk_doc_load(sample("hands/right_fist.vpd"), &fist, &log), 0);
    assert_int_equal(pk_doc_load(sample("hands/right_peace.vpd"), &peace, &log), 0);
    pk_selection *sel = pk_selection_parse(NULL, "@fingers_R", &log);
    pk_overlay_options o1 = {PK_OVERLAY_REPLACE, false, 30, 60, 6, false};
    pk_overlay_options o2 = {PK_OVERLAY_REPLACE, false, 90, 120, 6, false};
    pk_motion *a = pk_overlay_motion(dance.motion, fist.pose, sel, &o1, NULL, &log);
    pk_motion *b = pk_overlay_motion(a, peace.pose, sel, &o2, NULL, &log);
    assert_non_null(b);
    pk_buf want;
    pk_buf_init(&want);
    assert_int_equal(pk_vmd_write(b, &want, &log), 0);
    size_t len;
    uint8_t *got = tu_read_file(out, &len);
    assert_int_equal(len, want.len);
    assert_memory_equal(got, want.data, len);
    free(got);
    /* The VPD output is the pose at frame 100: the peace sign's fingers. */
    snprintf(out, sizeof out, "%s/out/at100.vpd", dir);
    got = tu_read_file(out, &len);
    pk_pose *p = pk_vpd_read(got, len, &log);
    assert_non_null(p);
    free(got);
    size_t checked = 0;
    for (size_t i = 0; i < peace.pose->nbones; i++) {
        size_t nl;
        const uint8_t *raw = pk_names_raw(peace.pose->names, peace.pose->bones[i].name, &nl);
        if (!pk_selection_has(sel, raw, nl))
            continue;
        long k = pk_pose_find_bone(p, pk_names_find(p->names, raw, nl));
        assert_true(k >= 0);
        assert_true(pk_quat_angle_deg(p->bones[k].rot, peace.pose->bones[i].rot) < 1e-3);
        checked++;
    }
    assert_int_equal(checked, 15);
    pk_pose_free(p);
    pk_buf_free(&want);
    pk_motion_free(a);
    pk_motion_free(b);
    pk_selection_free(sel);
    pk_doc_free(&dance);
    pk_doc_free(&fist);
    pk_doc_free(&peace);
    pk_job_free(j);
    pk_log_free(&log);
}

/* The last step fails (a merge with --prefer error meets conflicts): no
 * output is written, and an existing output file is left as it was. */
static void test_error_in_last_step_writes_nothing(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    write_job(dir, "  - merge: {in: [b, fist], prefer: error, out: both}\n");
    char job[4096], out[4096], old[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    snprintf(old, sizeof old, "%s/out", dir);
    assert_int_equal(mkdir(old, 0777), 0);
    snprintf(old, sizeof old, "%s/out/b.vmd", dir);
    write_text(old, "old contents");
    pk_log log;
    pk_log_init(&log);
    pk_job *j = pk_job_load(job, &log);
    assert_non_null(j);
    assert_int_equal(pk_job_run(j, &log), -1);
    tu_assert_log_has(&log, "conflict");
    tu_assert_log_has(&log, "job.yaml:10:5: step merge"); /* the merge step's line */
    assert_int_equal(pk_job_write(j, &log), -1);
    size_t len;
    uint8_t *got = tu_read_file(old, &len);
    assert_int_equal(len, 12);
    assert_memory_equal(got, "old contents", 12);
    free(got);
    snprintf(out, sizeof out, "%s/out/report.txt", dir);
    assert_false(exists(out));
    snprintf(out, sizeof out, "%s/out/at100.vpd", dir);
    assert_false(exists(out));
    pk_job_free(j);
    pk_log_free(&log);
}

/* Writing fails on the last output (its target became a folder after the
 * job was loaded and run): the outputs before it, already encoded and
 * written to their temporary files, are not renamed into place either; an
 * existing target keeps its bytes and no temporary file is left behind.
 * A target that is a folder when the job is loaded is refused then, at
 * its line, before any step runs (the command's -o is, too). */
static void test_failed_output_writes_none(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    write_job(dir, "");
    char job[4096], path[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    snprintf(path, sizeof path, "%s/out", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/out/b.vmd", dir);
    write_text(path, "old contents");
    snprintf(path, sizeof path, "%s/out/report.txt", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_job_load(job, &log));
    tu_assert_log_has(&log, "job.yaml:13:11: output 'report' names a folder ('out/report.txt'): "
                            "name the file to write in it");
    pk_log_free(&log);
    pk_log_init(&log);
    assert_int_equal(rmdir(path), 0);
    pk_job *j = load_and_run(job, &log);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(pk_job_write(j, &log), -1);
    tu_assert_log_has(&log, "report.txt");
    tu_assert_log_has(&log, "is a directory");
    size_t len;
    snprintf(path, sizeof path, "%s/out/b.vmd", dir);
    uint8_t *got = tu_read_file(path, &len);
    assert_int_equal(len, 12);
    assert_memory_equal(got, "old contents", 12);
    free(got);
    snprintf(path, sizeof path, "%s/out/at100.vpd", dir);
    assert_false(exists(path));
    /* Only what was there before: b.vmd and the report.txt folder. */
    snprintf(path, sizeof path, "%s/out", dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    size_t entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            if (strcmp(e->d_name, "b.vmd") != 0 && strcmp(e->d_name, "report.txt") != 0) {
                print_error("left behind: %s\n", e->d_name);
                fail();
            }
            entries++;
        }
    closedir(d);
    assert_int_equal(entries, 2);
    /* With the folder gone the same job writes all three. */
    snprintf(path, sizeof path, "%s/out/report.txt", dir);
    assert_int_equal(rmdir(path), 0);
    assert_int_equal(pk_job_write(j, &log), 0);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/out/at100.vpd", dir);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/out/b.vmd", dir);
    got = tu_read_file(path, &len);
    assert_true(len > 12);
    assert_memory_equal(got, "Vocaloid Motion Data 0002", 25);
    free(got);
    pk_job_free(j);
    pk_log_free(&log);
}

/* The entries of folder dir other than "." and "..", one per line. */
static void list_dir(const char *dir, char *out, size_t cap)
{
    size_t w = 0;
    out[0] = '\0';
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            w += (size_t)snprintf(out + w, cap - w, "%s\n", e->d_name);
    closedir(d);
}

/* A write that fails takes away the folders it made for the other
 * outputs. */
static void test_failed_write_unmakes_folders(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    char job[4096], text[8192], blocked[4096], made[4096], listing[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    snprintf(text, sizeof text,
             "inputs: {dance: %s}\nsteps:\n  - mirror: {in: dance, out: m}\n"
             "outputs:\n  m: new1/deep/m.vmd\n  dance: blocked/d.vmd\n",
             sample("dance.vmd"));
    write_text(job, text);
    pk_log log;
    pk_log_init(&log);
    pk_job *j = load_and_run(job, &log);
    /* the second target became a folder after the job was checked */
    snprintf(blocked, sizeof blocked, "%s/blocked", dir);
    assert_int_equal(mkdir(blocked, 0777), 0);
    snprintf(blocked, sizeof blocked, "%s/blocked/d.vmd", dir);
    assert_int_equal(mkdir(blocked, 0777), 0);
    assert_int_equal(pk_job_write(j, &log), -1);
    tu_assert_log_has(&log, "is a directory");
    snprintf(made, sizeof made, "%s/new1", dir);
    assert_false(exists(made));
    snprintf(made, sizeof made, "%s/blocked", dir);
    list_dir(made, listing, sizeof listing);
    assert_string_equal(listing, "d.vmd\n");
    /* a folder that was there stays, with what it held */
    snprintf(made, sizeof made, "%s/new1", dir);
    assert_int_equal(mkdir(made, 0777), 0);
    assert_int_equal(pk_job_write(j, &log), -1);
    assert_true(exists(made));
    snprintf(made, sizeof made, "%s/new1/deep", dir);
    assert_false(exists(made));
    assert_int_equal(rmdir(blocked), 0);
    assert_int_equal(pk_job_write(j, &log), 0);
    snprintf(made, sizeof made, "%s/new1/deep/m.vmd", dir);
    assert_true(exists(made));
    pk_job_free(j);
    pk_log_free(&log);
}

/* Mistakes in the job file carry JOB:LINE:COL. */
static void expect_load_error(const char *text, const char *needle)
{
    const char *dir = tu_tmpdir();
    char job[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    write_text(job, text);
    pk_log log;
    pk_log_init(&log);
    pk_job *j = pk_job_load(job, &log);
    if (j) {
        print_error("job loaded although it has a mistake: %s\n", text);
        fail();
    }
    tu_assert_log_has(&log, needle);
    pk_log_free(&log);
}

static void test_job_file_errors(void **state)
{
    (void)state;
    /* a quoted "" is a string (YAML's null is plain: rules.c's rule too) */
    expect_load_error("inputs: {a: x.vmd}\nrules: \"\"\noutputs: {a: c.vmd}\n",
                      "rules must be a mapping of NAME: PATH");
    expect_load_error("inputs: {a: x.vmd}\nsteps: \"null\"\noutputs: {a: c.vmd}\n",
                      "steps must be a list");
    static const char *const NULLS[] = {"", "~", "null", "Null", "NULL"};
    for (size_t i = 0; i < sizeof NULLS / sizeof NULLS[0]; i++) {
        const char *dir = tu_tmpdir();
        char job[4096], text[256];
        snprintf(job, sizeof job, "%s/null.yaml", dir);
        snprintf(text, sizeof text,
                 "inputs: {a: x.vmd}\nrules: %s\nsteps: %s\noutputs: {a: c.vmd}\n", NULLS[i],
                 NULLS[i]);
        write_text(job, text);
        pk_log log;
        pk_log_init(&log);
        pk_job *j = pk_job_load(job, &log);
        if (!j)
            print_error("rules and steps '%s' are not null: %s\n", NULLS[i],
                        log.count ? log.items[0].msg : "?");
        assert_non_null(j);
        pk_job_free(j);
        pk_log_free(&log);
    }
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - overlay: {base: a, pose: b, bones: X, "
                      "out: c}\noutputs: {c: c.vmd}\n",
                      "job.yaml:3:");
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - overlay: {base: a, pose: b, bones: X, "
                      "out: c}\noutputs: {c: c.vmd}\n",
                      "'b' is not defined");
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - twirl: {in: a, out: c}\noutputs: {c: "
                      "c.vmd}\n",
                      "job.yaml:3:5: unknown step 'twirl'");
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - mirror: {in: a, out: c, speed: 2}\n"
                      "outputs: {c: c.vmd}\n",
                      "unknown option 'speed' for mirror");
    expect_load_error("inputs: {a: x.vmd}\noutputs: {a: a.png}\n", "job.yaml:2:");
    expect_load_error("inputs: {a: x.vmd}\noutputs: {b: b.vmd}\n", "output 'b' names no input");
    expect_load_error("inputs: {a: x.vmd, a: y.vmd}\noutputs: {a: b.vmd}\n", "already used");
    expect_load_error("inputs: [x.vmd\n", "job.yaml:");
    /* worded as a rule file's syntax error is (test_rules) */
    expect_load_error("inputs: [x.vmd\n", "YAML syntax error: did not find expected ',' or ']'");
    /* a key given twice is an error at the second, naming the first */
    expect_load_error("inputs: {a: a.vmd}\noutputs: {y: y.vmd}\nsteps:\n"
                      "  - mirror: {in: a, in: a, out: y}\n",
                      "job.yaml:4:21: parameter 'in' is given twice (first on line 4)");
    expect_load_error("inputs: {a: a.vmd}\noutputs: {a: y.vmd}\ninputs: {b: b.vmd}\n",
                      "job.yaml:3:1: 'inputs' is given twice (first on line 1)");
    /* a second YAML document is not silently ignored */
    expect_load_error("inputs: {a: x.vmd}\noutputs: {a: b.vmd}\n---\nsteps: []\n",
                      "job.yaml:3:1: a job file holds one YAML document");
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - overlay: {base: a, pose: a, bones: X, "
                      "frames: 9-3, out: c}\noutputs: {c: c.vmd}\n",
                      "job.yaml:3:");
}

/* Runs a job that must fail (load fine, run -1) and checks the log has
 * `needle` and that no step ran: none of the log's lines says a step
 * failed, although the job's steps would (a merge that refuses its
 * conflicts), so the check came first. */
static void expect_run_error(const char *outputs, const char *needle)
{
    const char *dir = tu_tmpdir();
    char job[4096], body[8192];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    snprintf(body, sizeof body,
             "inputs:\n  dance: %s\n  fist: %s\nsteps:\n"
             "  - merge: {in: [dance, fist], offsets: [0, 45], prefer: error, out: clash}\n"
             "  - reduce: {in: dance, out: c}\n"
             "  - diff: {a: dance, b: c, out: report}\n"
             "outputs:\n%s",
             sample("dance.vmd"), sample("hands/right_fist.vpd"), outputs);
    write_text(job, body);
    pk_log log;
    pk_log_init(&log);
    pk_job *j = pk_job_load(job, &log);
    assert_non_null(j);
    assert_int_equal(pk_job_run(j, &log), -1);
    tu_assert_log_has(&log, needle);
    char line[2048];
    for (size_t i = 0; i < log.count; i++) {
        pk_diag_format(&log.items[i], line, sizeof line);
        if (strstr(line, "failed") || strstr(line, "conflict")) {
            print_error("a step ran: %s\n", line);
            fail();
        }
    }
    assert_string_equal(pk_job_report(j), "");
    assert_int_equal(pk_job_write(j, &log), -1);
    pk_job_free(j);
    pk_log_free(&log);
}

/* Outputs that cannot hold what their name will be are
 * errors at the output's path in the job file (JOB:LINE:COL), found
 * before any step runs, as the command refuses -o OUT.vpd for a motion
 * before it works; a missing input is an error at its entry; outputs: {}
 * says it is empty. */
static void test_output_errors_at_their_line(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    static const char C_VPD[] = "  clash: out/clash.vmd\n  c: out/c.vpd\n";
    expect_run_error(C_VPD, "job.yaml:10:6: ");
    expect_run_error(C_VPD, "out/c.vpd: 'c' is a motion: a .vpd holds one pose (take one with a "
                            "step convert: {in: c, to: vpd, frame: N, out: ...})");
    static const char C_TXT[] = "  clash: out/clash.vmd\n  c: {path: out/c.txt}\n";
    expect_run_error(C_TXT, "job.yaml:10:13: ");
    expect_run_error(
        C_TXT, "out/c.txt: 'c' is a motion: write it as .vmd (or take a pose with a step convert");
    static const char REPORT[] = "  report: out/report.vmd\n";
    expect_run_error(REPORT, "job.yaml:9:11: ");
    expect_run_error(
        REPORT, "'report' is a diff report: write it as .txt, .json, .csv or .svg (the picture)");
    /* an input named directly: a pose may be a .vpd, a motion not */
    static const char INPUTS[] = "  fist: out/fist.vpd\n  dance: out/dance.vpd\n";
    expect_run_error(INPUTS, "job.yaml:10:10: ");
    expect_run_error(INPUTS, "out/dance.vpd: 'dance' is a motion");

    /* a missing input: at its entry, naming it */
    const char *dir = tu_tmpdir();
    char job[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    write_text(job, "inputs:\n  dance: nofile.vmd\noutputs: {dance: out.vmd}\n");
    pk_log log;
    pk_log_init(&log);
    pk_job *j = pk_job_load(job, &log);
    assert_non_null(j);
    assert_int_equal(pk_job_run(j, &log), -1);
    tu_assert_log_has(&log, "job.yaml:2:10: input 'dance' (");
    tu_assert_log_has(&log, "nofile.vmd): cannot open");
    pk_job_free(j);
    pk_log_free(&log);

    expect_load_error("inputs: {a: x.vmd}\noutputs: {}\n",
                      "job.yaml:2:10: outputs is empty: name at least one result to write");
    expect_load_error("inputs: {a: x.vmd}\noutputs: [a.vmd]\n",
                      "job.yaml:2:10: outputs must be a mapping of NAME: PATH");
    expect_load_error("inputs: {a: x.vmd}\noutputs: {a: out/}\n",
                      "job.yaml:2:14: output 'a' names a folder ('out/')");
}

/* A missing input is found before anything runs or is written. */
static void test_missing_input(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir();
    char job[4096], out[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    write_text(job, "inputs: {a: nowhere.vmd}\noutputs: {a: copy.vmd}\n");
    pk_log log;
    pk_log_init(&log);
    pk_job *j = pk_job_load(job, &log);
    assert_non_null(j);
    assert_int_equal(pk_job_run(j, &log), -1);
    tu_assert_log_has(&log, "nowhere.vmd");
    assert_int_equal(pk_job_write(j, &log), -1);
    snprintf(out, sizeof out, "%s/copy.vmd", dir);
    assert_false(exists(out));
    pk_job_free(j);
    pk_log_free(&log);
}

/* A small PMX: bones センター and 右腕 (the dance keys both and more),
 * morph あ. */
static void write_model(const char *path)
{
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 0, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(&g, 0);
    pg_i32(&g, 2);
    pg_bone_simple(&g, "センター", "center", 0, -1);
    pg_bone_simple(&g, "右腕", "arm_R", 1, 0);
    pg_i32(&g, 1);
    pg_text(&g, "あ");
    pg_text(&g, "");
    pg_u8(&g, 3);
    pg_u8(&g, 1);
    pg_i32(&g, 0);
    pg_i32(&g, 0);
    pg_no_physics(&g);
    tu_write_file(path, g.b.data, g.b.len);
    pk_buf_free(&g.b);
}

static char *read_text(const char *path)
{
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    char *t = calloc(len + 1, 1);
    assert_non_null(t);
    memcpy(t, data, len);
    free(data);
    return t;
}

/* check, bake and reduce as job steps, with a model input: the outputs
 * are what the operations give when called directly, the check report in
 * each of its forms. */
static void test_check_reduce_bake_steps(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    char path[4096], text[8192];
    snprintf(path, sizeof path, "%s/m.pmx", dir);
    write_model(path);
    snprintf(text, sizeof text,
             "inputs: {dance: %s, m: m.pmx}\n"
             "steps:\n"
             "  - check: {in: dance, model: m, out: c}\n"
             "  - check: {in: dance, model: m, out: c2}\n"
             "  - check: {in: dance, model: m, out: c3}\n"
             "  - bake: {in: dance, step: 2, bones: \"@arms\", out: baked}\n"
             "  - reduce: {in: baked, max_deg: 0.05, max-pos: 1e-3, no_morphs: true, out: r}\n"
             "outputs: {c: out/c.txt, c2: out/c.json, c3: out/c.yaml, r: out/r.vmd}\n",
             sample("dance.vmd"));
    char job[4096];
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    write_text(job, text);
    pk_log log;
    pk_log_init(&log);
    pk_job *j = load_and_run(job, &log);
    assert_int_equal(pk_job_write(j, &log), 0);

    /* directly: the same check and the same bake then reduce */
    pk_doc dance;
    assert_int_equal(pk_doc_load(sample("dance.vmd"), &dance, &log), 0);
    pk_model *m = pk_model_load(path, &log);
    assert_non_null(m);
    pk_check_report *cr = pk_check_motion(m, dance.motion, &log);
    assert_non_null(cr);
    assert_true(cr->missing > 0);
    assert_true(cr->found >= 2);
    char want[256];
    /* the report line counts the bones and morphs the report holds */
    size_t nb = 0, mb = 0, vb = 0;
    for (size_t i = 0; i < cr->nitems; i++)
        if (!cr->items[i].morph) {
            nb++;
            mb += cr->items[i].status == PK_CHECK_MISSING;
            vb += cr->items[i].status == PK_CHECK_MISSING && cr->items[i].moving;
        }
    snprintf(want, sizeof want,
             "check dance -> c: bones keyed: %zu, missing on the model: %zu (%zu moving);", nb, mb,
             vb);
    assert_non_null(strstr(pk_job_report(j), want));

    snprintf(path, sizeof path, "%s/out/c.txt", dir);
    char *t = read_text(path);
    assert_true(strncmp(t, "dance on m (テスト)\n", strlen("dance on m (テスト)\n")) == 0);
    assert_true(cr->missing_moving > 0);
    assert_non_null(strstr(t, "missing and moving (MMD ignores these keys: the model shows none "
                              "of them):\n"));
    free(t);
    snprintf(path, sizeof path, "%s/out/c.json", dir);
    t = read_text(path);
    snprintf(want, sizeof want, "\n  \"missing\": %zu,\n", cr->missing);
    assert_non_null(strstr(t, "{\n  \"path\": \"dance\",\n  \"model_path\": \"m\",\n"));
    assert_non_null(strstr(t, want));
    free(t);
    snprintf(path, sizeof path, "%s/out/c.yaml", dir);
    t = read_text(path);
    assert_non_null(strstr(t, "# Suggested by `posekit check dance --model m`:\n"));
    assert_non_null(strstr(t, "rename:\n"));
    free(t);

    pk_selection *sel = pk_selection_parse(NULL, "@arms", &log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.bones = sel;
    o.step = 2;
    pk_motion *baked = pk_motion_bake(dance.motion, &o, NULL, &log);
    assert_non_null(baked);
    pk_reduce_options_init(&o);
    o.max_deg = 0.05;
    o.max_pos = 1e-3;
    o.morphs = false;
    pk_motion *red = pk_motion_reduce(baked, &o, NULL, &log);
    assert_non_null(red);
    pk_buf b;
    pk_buf_init(&b);
    assert_int_equal(pk_vmd_write(red, &b, &log), 0);
    snprintf(path, sizeof path, "%s/out/r.vmd", dir);
    size_t len;
    uint8_t *got = tu_read_file(path, &len);
    assert_int_equal(len, b.len);
    assert_memory_equal(got, b.data, len);
    free(got);
    pk_buf_free(&b);
    pk_motion_free(red);
    pk_motion_free(baked);
    pk_selection_free(sel);
    pk_check_free(cr);
    pk_model_free(m);
    pk_doc_free(&dance);
    pk_job_free(j);
    pk_log_free(&log);
}

/* The step table's checks for the new steps, through the setter both the
 * command line and jobs use. */
static void test_step_options(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_step *s = pk_step_new("reduce", "--", &log);
    assert_non_null(s);
    assert_int_equal(pk_step_option(s, "max-deg"), 1);
    assert_int_equal(pk_step_option(s, "step"), -1); /* bake's */
    assert_int_equal(pk_step_option(s, "camera"), 0);
    assert_int_equal(pk_step_set(s, "max_deg", "0", &log), -1);
    tu_assert_log_has(&log, "--max-deg wants a positive number of degrees, not '0'");
    assert_int_equal(pk_step_set(s, "max-pos", "1e-3", &log), 0);
    assert_int_equal(pk_step_operand(s, "a.vmd", &log), 0);
    assert_int_equal(pk_step_check(s, &log), 0);
    assert_int_equal(pk_step_set(s, "camera", NULL, &log), 0);
    assert_int_equal(pk_step_check(s, &log), 0); /* the camera too */
    pk_step_free(s);
    s = pk_step_new("bake", "", &log);
    assert_int_equal(pk_step_set(s, "step", "0", &log), -1);
    tu_assert_log_has(&log, "step wants a number of frames (1 or more), not '0'");
    assert_int_equal(pk_step_option(s, "max_deg"), -1);
    pk_step_free(s);
    s = pk_step_new("check", "", &log);
    assert_int_equal(pk_step_operand(s, "a.vmd", &log), 0);
    /* no model: the built-in bodies are what it reads beside the input */
    assert_int_equal(pk_step_check(s, &log), 0);
    pk_step_need need[3];
    assert_int_equal(pk_step_needs(s, need, 3), 2);
    assert_int_equal(need[1].kind, PK_NEED_BODIES);
    assert_int_equal(pk_step_set(s, "model", "m", &log), 0);
    assert_int_equal(pk_step_needs(s, need, 3), 2);
    assert_int_equal(need[1].kind, PK_NEED_MODEL);
    assert_false(pk_step_strict(s));
    assert_int_equal(pk_step_set(s, "strict", "true", &log), 0);
    assert_true(pk_step_strict(s));
    assert_int_equal(pk_step_check(s, &log), 0);
    assert_true(pk_step_reports(s, PK_REPORT_RULES));
    assert_false(pk_step_reports(s, PK_REPORT_CSV));
    pk_step_free(s);
    s = pk_step_new("diff", "", &log);
    assert_false(pk_step_reports(s, PK_REPORT_RULES));
    assert_true(pk_step_reports(s, PK_REPORT_CSV));
    pk_step_free(s);
    pk_log_free(&log);
}

/* Model inputs: named by the step's model option, never as a motion, never
 * written; a check report only as .txt, .json or .yaml. */
static void test_model_input_errors(void **state)
{
    (void)state;
    expect_load_error("inputs: {a: x.vmd, m: m.pmx}\nsteps:\n  - check: {in: a, model: a, out: "
                      "c}\noutputs: {c: c.txt}\n",
                      "job.yaml:3:27: model 'a' names a motion, pose or report, not a model");
    expect_load_error("inputs: {a: x.vmd, m: m.PMD}\nsteps:\n  - check: {in: m, model: m, out: "
                      "c}\noutputs: {c: c.txt}\n",
                      "job.yaml:3:17: in 'm' names a model, not a motion or pose");
    expect_load_error("inputs: {a: x.vmd, m: m.pmx}\noutputs: {m: m2.pmx}\n",
                      "output 'm' is a model");

    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - reduce: {in: a, max_deg: -1, out: c}\n"
                      "outputs: {c: c.vmd}\n",
                      "job.yaml:3:30: max_deg wants a positive number of degrees, not '-1'");
    expect_load_error("inputs: {a: x.vmd}\nsteps:\n  - reduce: {in: a}\noutputs: {a: c.vmd}\n",
                      "reduce needs 'out'");
}

/* A run tells the log's progress callback the part being done: each
 * input read, "step I of N, NAME" with what the step's operation says
 * after it ("step 1 of 2, reduce: reducing"), each output encoded; the
 * caller's callback is the log's again afterwards. */
typedef struct heard {
    char said[16][160];
    size_t n;
} heard;

static void hear(void *ctx, double done, const char *what)
{
    heard *h = ctx;
    assert_true(done >= 0.0 && done <= 1.0);
    if (h->n && strcmp(h->said[h->n - 1], what) == 0)
        return;
    if (h->n < 16)
        snprintf(h->said[h->n++], sizeof h->said[0], "%s", what);
}

static bool heard_prefix(const heard *h, const char *prefix)
{
    for (size_t i = 0; i < h->n; i++)
        if (strncmp(h->said[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

static void test_progress_by_part(void **state)
{
    (void)state;
    if (!sample("dance.vmd"))
        skip();
    const char *dir = tu_tmpdir();
    char job[4096], text[8192];
    snprintf(text, sizeof text,
             "inputs:\n  dance: %s\nsteps:\n  - mirror: {in: dance, out: m}\n"
             "  - reduce: {in: m, out: small}\noutputs:\n  small: out/small.vmd\n",
             sample("dance.vmd"));
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    write_text(job, text);
    heard h;
    memset(&h, 0, sizeof h);
    pk_log log;
    pk_log_init(&log);
    pk_log_set_progress(&log, hear, &h);
    pk_job *j = load_and_run(job, &log);
    assert_true(heard_prefix(&h, "input 'dance'"));
    assert_true(heard_prefix(&h, "step 1 of 2, mirror"));
    assert_true(heard_prefix(&h, "step 2 of 2, reduce: "));
    assert_true(heard_prefix(&h, "output 'small'"));
    assert_true(log.progress == hear && log.progress_ctx == &h);
    pk_job_free(j);
    pk_log_free(&log);
}

/* A strict step fails on the warnings its input met when read. */
static void test_strict_step(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir();
    char path[4096], job[4096];
    snprintf(path, sizeof path, "%s/m.pmx", dir);
    write_model(path);
    /* a pose with a bone listed twice: a warning when read */
    snprintf(path, sizeof path, "%s/p.vpd", dir);
    write_text(path, "Vocaloid Pose Data file\n\nm.osm;\n2;\n\n"
                     "Bone0{\x83\x5a\x83\x93\x83\x5e\x81\x5b\n0,0,0;\n0,0,0,1;\n}\n\n"
                     "Bone1{\x83\x5a\x83\x93\x83\x5e\x81\x5b\n0,0,0;\n0,0,0,1;\n}\n");
    snprintf(job, sizeof job, "%s/job.yaml", dir);
    for (int strict = 0; strict < 2; strict++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "inputs: {p: p.vpd, m: m.pmx}\nsteps:\n  - check: {in: p, model: m, strict: %s, "
                 "out: c}\noutputs: {c: c.txt}\n",
                 strict ? "true" : "false");
        write_text(job, text);
        pk_log log;
        pk_log_init(&log);
        pk_job *j = pk_job_load(job, &log);
        assert_non_null(j);
        assert_true(log.warnings == 0);
        assert_int_equal(pk_job_run(j, &log), strict ? -1 : 0);
        assert_true(log.warnings > 0);
        if (strict)
            tu_assert_log_has(&log, "job.yaml:3:5: check: strict: ");
        pk_job_free(j);
        pk_log_free(&log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_matches_direct_calls),
        cmocka_unit_test(test_error_in_last_step_writes_nothing),
        cmocka_unit_test(test_failed_output_writes_none),
        cmocka_unit_test(test_failed_write_unmakes_folders),
        cmocka_unit_test(test_job_file_errors),
        cmocka_unit_test(test_missing_input),
        cmocka_unit_test(test_output_errors_at_their_line),
        cmocka_unit_test(test_check_reduce_bake_steps),
        cmocka_unit_test(test_step_options),
        cmocka_unit_test(test_model_input_errors),
        cmocka_unit_test(test_strict_step),
        cmocka_unit_test(test_progress_by_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
