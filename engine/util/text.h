/*
 * text.h — internal (util/, linked into the library and the posekit
 * program): small text rules posekit keeps in one place: the extension
 * test, XML text, and the pictures' fonts and text widths.
 */
#ifndef PKI_UTIL_TEXT_H
#define PKI_UTIL_TEXT_H

#include "posekit.h"

/* The one case-insensitive extension test: path ends in ext (".json"),
 * ASCII letters in either case, with more before it ("pic.SVG" is a
 * picture on every system; ".svg" alone names nothing). */
bool pki_path_has_ext(const char *path, const char *ext);

/* s as XML/SVG text or attribute value: & < > " escaped, control bytes
 * other than tab written as '?' (the one escape every posekit picture
 * uses). */
void pki_buf_puts_xml(pk_buf *b, const char *s);

/* The font list of every SVG posekit writes (covers Japanese first). */
#define PKI_SVG_FONTS "'Noto Sans CJK JP', 'Noto Sans JP', 'IPAexGothic', 'IPAGothic', sans-serif"

/* The one estimate of the width in pixels of UTF-8 text at a font size,
 * a little over what the fonts of PKI_SVG_FONTS draw (measured with
 * rsvg-convert: Noto Sans CJK JP, and DejaVu Sans where no Japanese font
 * is installed, the wider of the two): narrow ASCII letters and
 * punctuation 0.36 em, m and w 0.95, other capitals 0.72, other ASCII
 * 0.62, CJK 1 em, other non-ASCII 0.65; bold 8% wider.  Pictures size
 * their canvas and columns with it, so text is never cut. */
double pki_text_width(const char *utf8, double size, bool bold);

/* The word of words[0..n) a slip of the keyboard away from given (a
 * letter or two wrong, missing, extra or swapped; '-' and '_' alike, ASCII
 * case ignored), or the one word given begins (3 letters or more): its
 * index, the nearest when several, or -1.  For "did you mean" in usage
 * errors: option names, commands, job keys. */
long pki_nearest_word(const char *given, const char *const *words, size_t n);

/* "a, b, c": words[0..n) joined into buf (size bytes, cut at a word's
 * end when it would not fit, always terminated); returns buf.  For the
 * list an unknown name's message gives, from the array it was checked
 * against, so the two never differ. */
const char *pki_word_list(char *buf, size_t size, const char *const *words, size_t n);

#endif
