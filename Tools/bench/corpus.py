#!/usr/bin/env python3
"""Deterministic benchmark corpus: localized mockups as typeset markup, Pango markup and Typst.

Each mockup is one 390 × 844 pt page in an English, Arabic or Hebrew interface: a title, two
labels, a row of three buttons, one or two paragraphs of 3–6 lines (in any of the three
languages, with numbers, Latin product names and an isolated phone number) and a five-item list
mixing scripts. Noto fonts from Fonts/, 17 pt body, line height 1.3.

    corpus.py COUNT OUT_DIR

writes OUT_DIR/NNNNN.xml (one typeset document per mockup), OUT_DIR/corpus.json (the same
mockups as blocks with Pango markup, for pango_render.py) and OUT_DIR/corpus.typ (one Typst
document, one page per mockup). The same COUNT gives the same files; the first N mockups of a
larger corpus are those of a corpus of N.
"""
import json
import os
import random
import sys
from xml.sax.saxutils import escape

PAGE_WIDTH, PAGE_HEIGHT, MARGIN = 390, 844, 16
BODY, TITLE, LINE_HEIGHT = 17, 34, 1.3
# Characters per line at 17 pt in 358 pt, measured on typeset's layout of this corpus (Latin,
# Arabic and Hebrew average out near this); paragraphs aim at 3–6 lines.
CHARACTERS_PER_LINE = 44

WORDS = {
    "en": ("the update brings faster sync and a new battery report for every device you own "
           "while your settings stay where you left them and nothing else changes unless you ask "
           "photos messages and notes move to the new phone in minutes over the same network "
           "storage is checked each night and old backups are removed after thirty days").split(),
    "ar": ("يجلب التحديث مزامنة أسرع وتقريرا جديدا عن البطارية لكل جهاز تملكه بينما تبقى "
           "إعداداتك حيث تركتها ولا يتغير شيء آخر إلا إذا طلبت ذلك تنتقل الصور والرسائل "
           "والملاحظات إلى الهاتف الجديد في دقائق عبر الشبكة نفسها ويتم فحص التخزين كل ليلة "
           "وتحذف النسخ الاحتياطية القديمة بعد ثلاثين يوما").split(),
    "he": ("העדכון מביא סנכרון מהיר יותר ודוח סוללה חדש לכל מכשיר שבבעלותך בזמן שההגדרות "
           "נשארות במקום שבו השארת אותן ושום דבר אחר לא משתנה אלא אם תבקש תמונות הודעות "
           "ופתקים עוברים לטלפון החדש תוך דקות דרך אותה רשת האחסון נבדק בכל לילה וגיבויים "
           "ישנים נמחקים אחרי שלושים יום").split(),
}
TITLES = {"en": ["Settings", "Battery", "Storage", "Backup", "Privacy"],
          "ar": ["الإعدادات", "البطارية", "التخزين", "النسخ الاحتياطي", "الخصوصية"],
          "he": ["הגדרות", "סוללה", "אחסון", "גיבוי", "פרטיות"]}
LABELS = {"en": ["Wi-Fi", "Bluetooth", "Notifications", "Display and brightness", "Sounds"],
          "ar": ["واي فاي", "بلوتوث", "الإشعارات", "الشاشة والسطوع", "الأصوات"],
          "he": ["Wi-Fi", "בלוטות׳", "התראות", "תצוגה ובהירות", "צלילים"]}
BUTTONS = {"en": ["Cancel", "Save", "Share"], "ar": ["إلغاء", "حفظ", "مشاركة"],
           "he": ["ביטול", "שמירה", "שיתוף"]}
ITEMS = {"en": ["Photos", "Messages from Anna", "Passport scan", "Music library", "Calendar"],
         "ar": ["الصور", "رسائل من سارة", "صورة جواز السفر", "مكتبة الموسيقى", "التقويم"],
         "he": ["תמונות", "הודעות מדנה", "סריקת דרכון", "ספריית מוזיקה", "לוח שנה"]}
PRODUCTS = ["Photon X2", "AirNote Pro", "Nimbus 7", "TypeKit", "Lumen 12 Max", "Orbit S"]
PHONES = ["+1 (555) 014-2368", "+972 3-555-0198", "+971 4 555 0123", "+44 20 7946 0958"]
LANGUAGES = ["en", "ar", "he"]
FONTS = ("Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew")


def paragraph(rng, language):
    """Text of 3–6 lines: words of `language`, a number, a product name, a phone number."""
    lines = rng.randint(3, 6)
    target = lines * CHARACTERS_PER_LINE - CHARACTERS_PER_LINE // 2
    words = WORDS[language]
    phone = rng.choice(PHONES)
    parts, length = [], len(phone) + 1
    extras = [("product", rng.choice(PRODUCTS)), ("number", str(rng.randint(2, 2048)))]
    while length < target:
        if extras and rng.random() < 0.15:
            parts.append(extras.pop())
        else:
            parts.append(("word", rng.choice(words)))
        length += len(parts[-1][1]) + 1
    parts.insert(rng.randint(len(parts) // 3, len(parts)), ("phone", phone))
    return parts


def mockup(index):
    """One mockup as a dictionary of plain data: every random choice is made here."""
    rng = random.Random(index * 7919 + 17)
    context = LANGUAGES[index % 3]
    blocks = [("title", context, TITLES[context][rng.randrange(5)])]
    for label in rng.sample(range(5), 2):
        blocks.append(("label", context, LABELS[context][label]))
    blocks.append(("row", context, [BUTTONS[context][i] for i in range(3)]))
    for _ in range(rng.randint(1, 2)):
        language = rng.choice(LANGUAGES)
        blocks.append(("p", language, paragraph(rng, language)))
    items = []
    for i in range(5):
        language = LANGUAGES[(index + i) % 3] if i % 2 else context
        items.append((language, ITEMS[language][(index + i * 2) % 5]
                      + (f" {rng.choice(PRODUCTS)}" if rng.random() < 0.4 else "")))
    blocks.append(("list", context, items))
    return {"context": context, "blocks": blocks}


# MARK: - typeset markup

def paragraph_xml(parts):
    return " ".join(f"<ltr>{escape(text)}</ltr>" if kind == "phone" else escape(text) for kind, text in parts)


def typeset_xml(m):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<document lang="{m["context"]}" width="{PAGE_WIDTH}" height="{PAGE_HEIGHT}" '
           f'margin="{MARGIN}" font-size="{BODY}" line-height="{LINE_HEIGHT}">']
    for kind, language, content in m["blocks"]:
        lang = "" if language == m["context"] else f' lang="{language}"'
        if kind in ("title", "label"):
            out.append(f"  <{kind}>{escape(content)}</{kind}>")
        elif kind == "row":
            out.append("  <row>" + "".join(f"<button>{escape(b)}</button>" for b in content) + "</row>")
        elif kind == "p":
            out.append(f"  <p{lang}>{paragraph_xml(content)}</p>")
        elif kind == "list":
            out.append("  <list>")
            for item_language, text in content:
                item_lang = "" if item_language == m["context"] else f' lang="{item_language}"'
                out.append(f"    <item{item_lang}>{escape(text)}</item>")
            out.append("  </list>")
    out.append("</document>")
    return "\n".join(out) + "\n"


# MARK: - Pango markup (drawn by pango_render.py)

LRI, PDI = "\u2066", "\u2069"


def pango_blocks(m):
    """Blocks with Pango markup. Pango has no isolate element: the phone number is wrapped in
    the Unicode isolate characters LRI … PDI, which Pango's bidi (FriBidi) honours."""
    blocks = []
    for kind, language, content in m["blocks"]:
        if kind == "p":
            text = " ".join(LRI + escape(t) + PDI if k == "phone" else escape(t) for k, t in content)
            blocks.append({"kind": kind, "lang": language, "markup": text})
        elif kind == "row":
            blocks.append({"kind": kind, "lang": language, "markup": [escape(b) for b in content]})
        elif kind == "list":
            blocks.append({"kind": kind, "lang": language,
                           "markup": [[lang, escape(t)] for lang, t in content]})
        else:
            blocks.append({"kind": kind, "lang": language, "markup": escape(content)})
    return {"context": m["context"], "blocks": blocks}


# MARK: - Typst

def typst_text(text):
    special = set('\\#*_`$<>@[]~"/=+-')
    return "".join("\\" + c if c in special else c for c in text)


def typst_page(m):
    rtl = m["context"] != "en"
    out = [f'#set text(lang: "{m["context"]}", dir: {"rtl" if rtl else "ltr"})']
    for kind, language, content in m["blocks"]:
        if kind == "title":
            out.append(f'#text(size: {TITLE}pt, weight: "bold")[{typst_text(content)}]')
        elif kind == "label":
            out.append(f"#block[{typst_text(content)}]")
        elif kind == "row":
            cells = ", ".join(
                f'box(width: 100%, height: 44pt, radius: 10pt, fill: rgb("#007aff"), '
                f'align(center + horizon, text(weight: "semibold", fill: white)[{typst_text(b)}]))' for b in content)
            out.append(f"#grid(columns: (1fr, 1fr, 1fr), gutter: 8pt, {cells})")
        elif kind == "p":
            text = " ".join(f'#box[#text(dir: ltr)[{typst_text(t)}]]' if k == "phone" else typst_text(t)
                            for k, t in content)
            direction = "rtl" if language != "en" else "ltr"
            out.append(f'#par[#set text(lang: "{language}", dir: {direction}); {text}]')
        elif kind == "list":
            items = ", ".join(f'[#text(lang: "{lang}")[{typst_text(t)}]]' for lang, t in content)
            out.append(f"#list({items})")
    return "\n".join(out) + "\n"


def typst_document(mockups):
    header = (f"#set page(width: {PAGE_WIDTH}pt, height: {PAGE_HEIGHT}pt, margin: {MARGIN}pt)\n"
              f'#set text(font: ({", ".join(repr(f).replace(chr(39), chr(34)) for f in FONTS)}), '
              f"size: {BODY}pt)\n"
              # Lines 1 em tall (edges at 0.8 and -0.2 em) plus leading: 1.3 em from baseline to baseline.
              f"#set text(top-edge: 0.8em, bottom-edge: -0.2em)\n"
              f"#set par(leading: {LINE_HEIGHT - 1:.1f}em, spacing: 12pt)\n")
    body = "\n#pagebreak()\n".join("[\n" + typst_page(m) + "]" for m in mockups)
    # Each page's content in its own content block so that its `set` rules stay on the page.
    return header + body.replace("[\n#set", "#[\n#set") + "\n"


def main():
    count, folder = int(sys.argv[1]), sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    mockups = [mockup(i) for i in range(count)]
    width = max(5, len(str(count)))
    for i, m in enumerate(mockups):
        path = os.path.join(folder, f"{i + 1:0{width}d}.xml")
        text = typeset_xml(m)
        try:
            with open(path, encoding="utf-8") as existing:
                if existing.read() == text:
                    continue
        except FileNotFoundError:
            pass
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(folder, "corpus.json"), "w", encoding="utf-8") as f:
        json.dump({"width": PAGE_WIDTH, "height": PAGE_HEIGHT, "margin": MARGIN, "body": BODY,
                   "title": TITLE, "lineHeight": LINE_HEIGHT, "fonts": FONTS,
                   "mockups": [pango_blocks(m) for m in mockups]}, f, ensure_ascii=False)
    with open(os.path.join(folder, "corpus.typ"), "w", encoding="utf-8") as f:
        f.write(typst_document(mockups))


if __name__ == "__main__":
    main()
