#!/usr/bin/env python3
"""Generates Sources/Core/CardText/Unicode/UnicodeTables.swift from Unicode's data files.

Usage:
  scripts/generate-unicode-tables.py [UNICODE_DIR] > Sources/Core/CardText/Unicode/UnicodeTables.swift

UNICODE_DIR defaults to /usr/share/unicode (Debian's `unicode-data` package). Every code point gets
a property set; identical sets share a class, and a two-level table (256 code points per block)
maps a code point to its class. The properties:

- the grapheme width a grapheme-aware terminal uses per code point (Python `wcwidth.wcwidth`):
  0 for marks, format characters and Hangul fillers, 2 for East Asian Wide/Fullwidth, else 1;
- the width the C library's `wcwidth` gives (glibc 2.36, Unicode 14, which ncurses uses), with
  glibc's own rules (localedata/unicode-gen/utf8_gen.py), or "unknown" for code points it lacks;
- what the sanitiser removes, combining marks, spacing marks, Indic consonants, narrow bases that
  VS16 widens, Extended_Pictographic, and grapheme extenders.
"""
import os
import re
import sys

DIR = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
CURSES_VERSION = (14, 0)
# Code points that grapheme-aware terminals (and Python's wcwidth) draw wide although the 15.0 data
# says narrow, as glibc 2.36 does: the East Asian Width changes of Unicode 16, and regional
# indicators (a lone one is drawn wide, a flag is one wide cluster).
TERMINAL_WIDE = [(0x2630, 0x2637), (0x268A, 0x268F), (0x4DC0, 0x4DFF), (0x1D300, 0x1D356),
                 (0x1D360, 0x1D376), (0x1F1E6, 0x1F1FF)]
# Marks that became spacing marks (Mc) in Unicode 16: AHOM CONSONANT SIGN MEDIAL RA.
SPACING_SINCE_16 = {0x1171E}

CURSES_SHIFT, CURSES_UNKNOWN = 2, 3
REMOVE, MARK, SPACING_MARK, CONSONANT, VS16_WIDENS, PICTOGRAPHIC, EXTENDS = (
  1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10)


def ranges(path, want=None):
  """Yields (first, last, value) for each data line of a UCD file."""
  with open(os.path.join(DIR, path), encoding="utf-8") as f:
    for line in f:
      line = line.split("#", 1)[0].strip()
      if not line:
        continue
      fields = [x.strip() for x in line.split(";")]
      if want is not None and fields[1] != want:
        continue
      lo, _, hi = fields[0].partition("..")
      yield int(lo, 16), int(hi or lo, 16), fields[1]


def table(path, want=None):
  out = {}
  for lo, hi, value in ranges(path, want):
    for cp in range(lo, hi + 1):
      out[cp] = value
  return out


def version(path):
  with open(os.path.join(DIR, path), encoding="utf-8") as f:
    return re.search(r"-(\d+\.\d+\.\d+)\.txt", f.readline()).group(1)


category = table("extracted/DerivedGeneralCategory.txt")
bidi = table("extracted/DerivedBidiClass.txt")
eaw = table("extracted/DerivedEastAsianWidth.txt")
age = {cp: tuple(int(x) for x in v.split(".")) for cp, v in table("DerivedAge.txt").items()}
ignorable = table("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")
prepended = table("PropList.txt", "Prepended_Concatenation_Mark")
noncharacter = table("PropList.txt", "Noncharacter_Code_Point")
bidi_control = table("PropList.txt", "Bidi_Control")
pictographic = table("emoji/emoji-data.txt", "Extended_Pictographic")
grapheme = table("auxiliary/GraphemeBreakProperty.txt")
consonant = table("IndicSyllabicCategory.txt", "Consonant")
vs16_bases = set()
for line in open(os.path.join(DIR, "emoji/emoji-variation-sequences.txt"), encoding="utf-8"):
  if "emoji style" in line:
    vs16_bases.add(int(line.split()[0], 16))
terminal_wide = {cp for lo, hi in TERMINAL_WIDE for cp in range(lo, hi + 1)}

HANGUL_FILLERS = set(range(0x1160, 0x1200)) | set(range(0xD7B0, 0xD800)) | {0x3164, 0xFFA0}
# Kept although default-ignorable: they join or select glyphs and have width 0 everywhere.
KEPT_IGNORABLES = {0x200C, 0x200D} | set(range(0xFE00, 0xFE10)) | set(range(0xE0100, 0xE01F0)) \
  | set(range(0x180B, 0x180E)) | {0x180F, 0x034F}


def is_wide(cp):
  return eaw.get(cp, "N") in ("W", "F")


def ref_width(cp):
  """Python wcwidth's per-code-point width (ambiguous = 1)."""
  gc = category.get(cp, "Cn")
  if gc in ("Mn", "Me", "Mc", "Cf", "Zl", "Zp") or cp in HANGUL_FILLERS or cp == 0:
    return 0
  if gc == "Cc":
    return 0
  return 2 if is_wide(cp) or cp in terminal_wide else 1


def curses_width(cp):
  """glibc 2.36's wcwidth, or None where it returns -1."""
  gc = category.get(cp, "Cn")
  if cp not in age or age[cp] > CURSES_VERSION or gc in ("Cc", "Cs", "Zl", "Zp", "Cn"):
    return 0 if cp == 0 else None
  if cp in noncharacter:
    return None
  width = 2 if is_wide(cp) else 1
  if bidi.get(cp) == "NSM" or gc in ("Cf", "Me", "Mn"):
    width = 0
  if cp in prepended or cp == 0x00AD:
    width = 1
  if 0x1160 <= cp < 0x1200 or 0xD7B0 <= cp < 0xD800:
    width = 0
  if 0x3248 <= cp < 0x3250 or 0x4DC0 <= cp < 0x4E00:
    width = 2
  return width


def removed(cp):
  gc = category.get(cp, "Cn")
  if cp in (0x09, 0x0A):
    return False
  return (gc in ("Cc", "Cs", "Zl", "Zp") or cp in noncharacter or cp in bidi_control
          or (gc == "Cf" and cp not in KEPT_IGNORABLES)
          or (cp in ignorable and cp not in KEPT_IGNORABLES)
          or 0xE0000 <= cp <= 0xE007F)


def properties(cp):
  gc = category.get(cp, "Cn")
  curses = curses_width(cp)
  bits = ref_width(cp) | ((CURSES_UNKNOWN if curses is None else curses) << CURSES_SHIFT)
  if removed(cp):
    bits |= REMOVE
  if gc in ("Mn", "Mc", "Me"):
    bits |= MARK
  if gc == "Mc" or cp in SPACING_SINCE_16:
    bits |= SPACING_MARK
  if cp in consonant:
    bits |= CONSONANT
  if cp in vs16_bases and not is_wide(cp):
    bits |= VS16_WIDENS
  if cp in pictographic:
    bits |= PICTOGRAPHIC
  if grapheme.get(cp) in ("Extend", "ZWJ", "SpacingMark"):
    bits |= EXTENDS
  return bits


def seven_bit_literal(values):
  """A Swift string literal holding one 7-bit value per UTF-8 byte."""
  out = []
  for v in values:
    assert 0 <= v < 128
    c = chr(v)
    out.append(c if 0x20 <= v < 0x7F and c not in '"\\' else "\\u{%X}" % v)
  merged, buf = [], ""
  for piece in out:
    buf += piece
    if len(buf) >= 90:
      merged.append(buf)
      buf = ""
  if buf:
    merged.append(buf)
  return "\\\n".join("    " + line for line in merged)


def split7(values):
  out = []
  for v in values:
    assert v < 1 << 14
    out += [v & 0x7F, v >> 7]
  return out


def main():
  classes, class_of = [], {}
  blocks, block_of, stage1 = [], {}, []
  for hi in range(0x110000 >> 8):
    block = []
    for cp in range(hi << 8, (hi + 1) << 8):
      p = properties(cp)
      if p not in class_of:
        class_of[p] = len(classes)
        classes.append(p)
      block.append(class_of[p])
    key = tuple(block)
    if key not in block_of:
      block_of[key] = len(blocks)
      blocks.append(block)
    stage1.append(block_of[key])
  assert len(classes) < 128
  ucd = version("DerivedAge.txt")
  print(f"""// Generated by scripts/generate-unicode-tables.py from the Unicode {ucd} data files
// (EastAsianWidth, DerivedGeneralCategory, emoji-data, GraphemeBreakProperty, ...). Do not edit.

/// Per-code-point properties as a two-level table: `blocks` maps `codePoint >> 8` to a block,
/// `classes` maps `block * 256 + codePoint & 0xFF` to a class, `properties` a class to its bits.
///
/// Stored as 7-bit string literals so that a lookup reads constant data with no initialisation.
enum UnicodeTables {{
  /// The Unicode version of the data files.
  static let unicodeVersion = "{ucd}"
  /// The Unicode version of the C library whose `wcwidth` the curses widths follow.
  static let cursesUnicodeVersion = "{CURSES_VERSION[0]}.{CURSES_VERSION[1]}.0"

  /// Two 7-bit bytes (low, high) per 256 code points: the block index.
  static let blocks: StaticString = \"\"\"
{seven_bit_literal(split7(stage1))}
    \"\"\"

  /// One byte per code point of each block: the class index.
  static let classes: StaticString = \"\"\"
{seven_bit_literal([c for b in blocks for c in b])}
    \"\"\"

  /// Two 7-bit bytes (low, high) per class: `ScalarProperties` bits.
  static let properties: StaticString = \"\"\"
{seven_bit_literal(split7(classes))}
    \"\"\"
}}""")


main()
