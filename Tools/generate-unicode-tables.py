#!/usr/bin/env python3
"""Generates Sources/Typeset/Unicode/Generated/UnicodeTables.swift from the UCD 15.0.0 files.

Reads pinned files by path (Debian's unicode-data package installs them under
/usr/share/unicode); never downloads. Usage:

    python3 Tools/generate-unicode-tables.py [UCD_DIR] > Sources/Typeset/Unicode/Generated/UnicodeTables.swift

Each property becomes a flat [UInt32] of range starts packed with their value
(start << 8 | value); a range lasts until the next start, and the ranges cover
U+0000..U+10FFFF. `UnicodeProperties.swift` turns them into lookup tables.
"""
import os
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
VERSION = "15.0.0"
MAX = 0x110000

INPUTS = {
    "bidi": "extracted/DerivedBidiClass.txt",
    "brackets": "BidiBrackets.txt",
    "linebreak": "LineBreak.txt",
    "eaw": "EastAsianWidth.txt",
    "gc": "extracted/DerivedGeneralCategory.txt",
    "scripts": "Scripts.txt",
    "scx": "ScriptExtensions.txt",
    "gcb": "auxiliary/GraphemeBreakProperty.txt",
    "emoji": "emoji/emoji-data.txt",
    "core": "DerivedCoreProperties.txt",
    "proplist": "PropList.txt",
    "unicodedata": "UnicodeData.txt",
    "aliases": "PropertyValueAliases.txt",
}

# Value lists fix each enum's raw values; the Swift enums list the same names in the same order.
BIDI = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
        "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
LINEBREAK = ["BK", "CR", "LF", "CM", "NL", "SG", "WJ", "ZW", "GL", "SP", "ZWJ", "B2", "BA", "BB",
             "HY", "CB", "CL", "CP", "EX", "IN", "NS", "OP", "QU", "IS", "NU", "PO", "PR", "SY",
             "AI", "AL", "CJ", "EB", "EM", "H2", "H3", "HL", "ID", "JL", "JV", "JT", "RI", "SA", "XX"]
EAW = ["N", "A", "F", "H", "Na", "W"]
GC = ["Cn", "Cc", "Cf", "Co", "Cs", "Ll", "Lm", "Lo", "Lt", "Lu", "Mc", "Me", "Mn", "Nd", "Nl",
      "No", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Sc", "Sk", "Sm", "So", "Zl", "Zp", "Zs"]
GCB = ["Other", "CR", "LF", "Control", "Extend", "ZWJ", "Regional_Indicator", "Prepend",
       "SpacingMark", "L", "V", "T", "LV", "LVT"]


def path(key):
    return os.path.join(UCD, INPUTS[key])


def header(key):
    """The first two lines of an input file (its name with version, and its date)."""
    with open(path(key), encoding="utf-8") as f:
        first, second = f.readline().rstrip("\n"), f.readline().rstrip("\n")
    if not first.startswith("#"):
        return ["(no header)", "first line: " + first]
    return [first, second]


def parse_range(text):
    text = text.strip()
    if ".." in text:
        a, b = text.split("..")
        return int(a, 16), int(b, 16)
    return int(text, 16), int(text, 16)


def property_map(key, default, aliases=None):
    """Values per code point: @missing lines first (in file order), then the data lines."""
    values = [default] * MAX
    data = []
    with open(path(key), encoding="utf-8") as f:
        for line in f:
            if line.startswith("# @missing:"):
                rng, value = line[len("# @missing:"):].split(";")
                lo, hi = parse_range(rng)
                value = value.strip()
                value = aliases.get(value, value) if aliases else value
                values[lo:hi + 1] = [value] * (hi - lo + 1)
                continue
            line = line.split("#")[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            data.append((parse_range(fields[0]), fields[1]))
    for (lo, hi), value in data:
        value = aliases.get(value, value) if aliases else value
        values[lo:hi + 1] = [value] * (hi - lo + 1)
    return values


def data_fields(key):
    """The `;`-separated fields of each data line of an input file, without its comments."""
    with open(path(key), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                yield [x.strip() for x in line.split(";")]


def binary_property(key, name):
    """"Y" where the binary property `name` holds, from a file of `RANGE ; Name` lines."""
    values = ["N"] * MAX
    for fields in data_fields(key):
        if fields[1] == name:
            lo, hi = parse_range(fields[0])
            values[lo:hi + 1] = ["Y"] * (hi - lo + 1)
    return values


def value_aliases(prop):
    """Long name → short name for one property in PropertyValueAliases.txt."""
    result = {}
    with open(path("aliases"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            fields = [x.strip() for x in line.split(";")]
            if len(fields) >= 3 and fields[0] == prop:
                for name in fields[2:]:
                    result[name] = fields[1]
    return result


def ranges(values, names):
    index = {name: i for i, name in enumerate(names)}
    out = []
    previous = None
    for cp in range(MAX):
        v = values[cp]
        if v != previous:
            out.append((cp << 8) | index[v])
            previous = v
    return out


def swift_array(name, numbers, comment):
    lines = [f"    /// {comment}", f"    static let {name}: [UInt32] = ["]
    for i in range(0, len(numbers), 8):
        lines.append("        " + ", ".join(f"0x{n:08X}" for n in numbers[i:i + 8]) + ",")
    lines.append("    ]")
    return "\n".join(lines)


def main():
    bidi_long = value_aliases("bc")
    bidi = property_map("bidi", "L", bidi_long)
    linebreak = property_map("linebreak", "XX")
    eaw = property_map("eaw", "N")
    gc = property_map("gc", "Cn")
    gcb = property_map("gcb", "Other")

    sc_aliases = value_aliases("sc")  # long name -> ISO 15924 code
    scripts = property_map("scripts", "Zzzz", sc_aliases)
    script_codes = ["Zzzz", "Zyyy", "Zinh"] + sorted(set(scripts) - {"Zzzz", "Zyyy", "Zinh"})

    # Script_Extensions where listed (else it is the Script value): each distinct set of codes
    # once, in the order of first use by code point, 0 for none.
    scx_sets = [()]
    scx = ["0"] * MAX
    entries = sorted((parse_range(rng), tuple(codes.split())) for rng, codes in data_fields("scx"))
    for (lo, hi), codes in entries:
        if codes not in scx_sets:
            scx_sets.append(codes)
        scx[lo:hi + 1] = [str(scx_sets.index(codes))] * (hi - lo + 1)
    assert len(scx_sets) < 256

    extpict = binary_property("emoji", "Extended_Pictographic")
    emoji_presentation = binary_property("emoji", "Emoji_Presentation")
    ignorable = binary_property("core", "Default_Ignorable_Code_Point")
    alphabetic = binary_property("core", "Alphabetic")
    white_space = binary_property("proplist", "White_Space")

    decomposition = {}
    with open(path("unicodedata"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            d = fields[5].split()
            if len(d) == 1 and not d[0].startswith("<"):
                decomposition[int(fields[0], 16)] = int(d[0], 16)

    brackets = []
    for cp, pair, kind in data_fields("brackets"):
        cp, pair = int(cp, 16), int(pair, 16)
        # N0 matches brackets by canonical equivalence: U+2329 pairs with U+3009.
        brackets.append((cp, decomposition.get(cp, cp), decomposition.get(pair, pair), kind))

    out = []
    out.append("// Generated by Tools/generate-unicode-tables.py — do not edit.")
    out.append(f"// Command: python3 Tools/generate-unicode-tables.py {UCD}")
    out.append(f"// Unicode {VERSION}. Inputs:")
    for key in INPUTS:
        first, second = header(key)
        out.append(f"//   {INPUTS[key]}: {first.lstrip('# ').strip()} | {second.lstrip('# ').strip()}")
    out.append("")
    out.append("// swift-format-ignore-file")
    out.append("")
    out.append("enum UnicodeTables {")
    out.append(f'    static let unicodeVersion = "{VERSION}"')
    out.append("")
    out.append(swift_array("bidiClass", ranges(bidi, BIDI), "Bidi_Class (UAX #9), values in BidiClass order."))
    out.append("")
    out.append(swift_array("lineBreak", ranges(linebreak, LINEBREAK), "Line_Break (UAX #14), values in LineBreakClass order."))
    out.append("")
    out.append(swift_array("eastAsianWidth", ranges(eaw, EAW), "East_Asian_Width, values in EastAsianWidth order."))
    out.append("")
    out.append(swift_array("generalCategory", ranges(gc, GC), "General_Category, values in GeneralCategory order."))
    out.append("")
    out.append(swift_array("graphemeClusterBreak", ranges(gcb, GCB), "Grapheme_Cluster_Break (UAX #29), values in GraphemeClusterBreak order."))
    out.append("")
    out.append(swift_array("extendedPictographic", ranges(extpict, ["N", "Y"]), "Extended_Pictographic (UTS #51): 1 where true."))
    out.append("")
    out.append(swift_array("emojiPresentation", ranges(emoji_presentation, ["N", "Y"]), "Emoji_Presentation (UTS #51): 1 where true."))
    out.append("")
    out.append(swift_array("defaultIgnorable", ranges(ignorable, ["N", "Y"]), "Default_Ignorable_Code_Point (DerivedCoreProperties.txt): 1 where true."))
    out.append("")
    out.append(swift_array("alphabetic", ranges(alphabetic, ["N", "Y"]), "Alphabetic (DerivedCoreProperties.txt): 1 where true."))
    out.append("")
    out.append(swift_array("whiteSpace", ranges(white_space, ["N", "Y"]), "White_Space (PropList.txt): 1 where true."))
    out.append("")
    out.append(swift_array("script", ranges(scripts, script_codes), "Script, values index scriptCodes."))
    out.append("")
    out.append("    /// ISO 15924 codes of the Script values.")
    out.append("    static let scriptCodes: [String] = [")
    for i in range(0, len(script_codes), 10):
        out.append("        " + ", ".join(f'"{c}"' for c in script_codes[i:i + 10]) + ",")
    out.append("    ]")
    out.append("")
    out.append("    /// The Script values' names (PropertyValueAliases.txt), in the order of scriptCodes, words")
    out.append("    /// apart: \"Tamil\", \"Old Italic\".")
    out.append("    static let scriptNames: [String] = [")
    code_names = {}
    for name, code in sc_aliases.items():  # the first name of each code: its long name
        code_names.setdefault(code, name.replace("_", " "))
    for i in range(0, len(script_codes), 8):
        out.append("        " + ", ".join(f'"{code_names.get(c, c)}"' for c in script_codes[i:i + 8]) + ",")
    out.append("    ]")
    out.append("")
    out.append(swift_array("scriptExtensions", ranges(scx, [str(i) for i in range(len(scx_sets))]),
                           "Script_Extensions where listed: values index scriptExtensionSets (0: none, the Script value)."))
    out.append("")
    out.append("    /// The distinct Script_Extensions values, as indices of scriptCodes.")
    out.append("    static let scriptExtensionSets: [[UInt8]] = [")
    for codes in scx_sets:
        out.append("        [" + ", ".join(str(script_codes.index(c)) for c in codes) + "],")
    out.append("    ]")
    out.append("")
    out.append("    /// BidiBrackets.txt: (code point, its canonical equivalent, canonical equivalent of its pair, 1 if opening).")
    out.append("    static let bidiBrackets: [(UInt32, UInt32, UInt32, UInt8)] = [")
    for cp, canon, pair, kind in brackets:
        out.append(f"        (0x{cp:04X}, 0x{canon:04X}, 0x{pair:04X}, {1 if kind == 'o' else 0}),")
    out.append("    ]")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
