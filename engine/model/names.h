/* names.h — the name table's conversions and cut rule beyond posekit.h
 * (for the codecs, rules and operations). */
#ifndef PKI_MODEL_NAMES_H
#define PKI_MODEL_NAMES_H

#include "posekit.h"

/* UTF-8 utf8[0..n) (need not be NUL-terminated) to CP932, byte for byte
 * what the text says: no \xNN escapes are decoded.  *out is malloc'd
 * (caller frees); -1 when a character has no CP932 form, or on OOM. */
int pki_utf8_to_cp932_exact(const char *utf8, size_t n, uint8_t **out, size_t *out_len);
/* True when every non-ASCII character of raw[0..len) decodes as CP932. */
bool pki_cp932_valid(const void *raw, size_t len);
/* Whether byte offset pos of raw[0..len) starts a CP932 character. */
bool pki_cp932_is_boundary(const uint8_t *raw, size_t len, size_t pos);

/* ---- MMD's cut names: the one matching rule (doc/formats.md §4) ----
 *
 * MMD stores a name longer than its field cut to the field's bytes: 15 in
 * a VMD (PK_VMD_NAME_BYTES), 19 in a VPD (PK_VPD_NAME_BYTES), either at the
 * raw byte (which may leave a lone lead byte) or at the last whole CP932
 * character.  Everything that compares a full name with a stored one (diff,
 * overlay, check, selections and rename rules) asks these. */

/* The lengths full[0..len) may have been stored as in some field, shortest
 * first, without repeats: for each field shorter than len, the raw cut and
 * the character cut.  Returns how many (0 when the name fits every field;
 * at most 4). */
size_t pki_name_cuts(const uint8_t *full, size_t len, size_t cuts[4]);
/* Whether stored[0..slen) is full[0..flen) as MMD stores it in a field of
 * `field` bytes (the name itself when it fits, else one of its two cuts). */
bool pki_name_stored_as(const uint8_t *full, size_t flen, const uint8_t *stored, size_t slen,
                        size_t field);
/* Whether stored[0..slen) is full[0..flen), or full cut for a VMD or a
 * VPD field. */
bool pki_name_matches(const uint8_t *full, size_t flen, const uint8_t *stored, size_t slen);
/* The id in t of full[0..len), else of the first of its cuts (pki_name_cuts
 * order) that t holds; PK_NO_NAME when none. */
pk_name_id pki_names_find_stored(const pk_names *t, const uint8_t *full, size_t len);

/* The CP932 bytes of model bone i's name (*len set), or NULL when the name
 * could not be encoded (the reader warned). */
static inline const uint8_t *pki_model_bone_raw(const pk_model *m, size_t i, size_t *len)
{
    *len = 0;
    return m->bones[i].cp932 == PK_NO_NAME ? NULL : pk_names_raw(m->names, m->bones[i].cp932, len);
}
/* The id in t of model bone i's name as a VMD writes it (cut to the
 * field at the last whole CP932 character); with make, interned when t
 * lacks it.  PK_NO_NAME when the name could not be encoded, t lacks it
 * (without make) or on OOM. */
pk_name_id pki_model_bone_vmd_name(pk_names *t, const pk_model *m, size_t i, bool make);

#endif
