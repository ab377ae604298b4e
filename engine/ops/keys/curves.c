/* curves.c — the interpolation curves of chosen bone keys set
 * (posekit.h, pk_motion_set_curves), and of camera keys
 * (pk_motion_set_camera_curves: six channels, each stored x1, x2, y1,
 * y2).  A key's curve shapes the segment
 * that ends at it (doc/formats.md §5), so setting the keys of frames A..B
 * reshapes the segments that end inside A..B.  Only the curve bytes of
 * the chosen channels change (pk_interp_set's layout, the physics flag
 * kept); every other byte and every other record stays as it was.
 */
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

int pk_motion_set_curves(pk_motion *m, const pk_selection *bones, uint32_t first, uint32_t last,
                         const uint8_t cp[4][4], unsigned axes, pk_curve_stats *stats, pk_log *log)
{
    (void)log;
    pk_curve_stats local;
    pk_curve_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    if (axes == 0)
        axes = 0xF;
    size_t nn = pk_names_count(m->names);
    unsigned char *seen = NULL;
    if (nn) {
        seen = calloc(nn, 1);
        if (!seen) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
    }
    for (size_t i = 0; i < m->nbones; i++) {
        pk_bone_key *k = &m->bones[i];
        if (k->frame < first || k->frame > last)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, k->name, &len);
        if (bones && !pk_selection_has(bones, raw, len))
            continue;
        st->keys++;
        if (!seen[k->name]) {
            seen[k->name] = 1;
            st->tracks++;
        }
        uint8_t now[4][4];
        for (int a = 0; a < 4; a++)
            pk_interp_curve(k->interp, a, now[a]);
        uint8_t want[4][4];
        memcpy(want, now, sizeof want);
        for (int a = 0; a < 4; a++)
            if (axes & (1u << a))
                memcpy(want[a], cp[a], 4);
        if (memcmp(want, now, sizeof want) == 0)
            continue;
        bool physics_off = k->interp[2] == 0x63 && k->interp[3] == 0x0F;
        pk_interp_set(k->interp, (const uint8_t(*)[4])want, physics_off);
        st->changed++;
    }
    free(seen);
    return 0;
}

void pk_motion_set_camera_curves(pk_motion *m, uint32_t first, uint32_t last,
                                 const uint8_t cp[6][4], unsigned axes, pk_curve_stats *st)
{
    if (axes == 0)
        axes = 0x3F;
    for (size_t i = 0; i < m->ncameras; i++) {
        pk_camera_key *k = &m->cameras[i];
        if (k->frame < first || k->frame > last)
            continue;
        st->camera_keys++;
        uint8_t want[24];
        memcpy(want, k->interp, sizeof want);
        for (int c = 0; c < 6; c++)
            if (axes & (1u << c)) {
                want[4 * c + 0] = cp[c][0]; /* x1 */
                want[4 * c + 1] = cp[c][2]; /* x2 */
                want[4 * c + 2] = cp[c][1]; /* y1 */
                want[4 * c + 3] = cp[c][3]; /* y2 */
            }
        if (memcmp(want, k->interp, sizeof want) != 0) {
            memcpy(k->interp, want, sizeof want);
            st->camera_changed++;
        }
    }
}
