#!/usr/bin/python3
"""The Pango reference of the benchmark: draws corpus.json (from corpus.py) with Pango and Cairo
through PyGObject, in one process, the way typeset lays the mockups out (margins, 1.3 line
height, button row, bulleted list).

    pango_render.py CORPUS_JSON pdf OUT.pdf        one multi-page PDF
    pango_render.py CORPUS_JSON svg OUT_DIR        one SVG per page
    pango_render.py CORPUS_JSON png OUT_DIR [SCALE] one PNG per page at SCALE (default 2)

Run it with Debian's /usr/bin/python3 (python3-gi, gir1.2-pango-1.0, python3-gi-cairo). Fonts:
point FONTCONFIG_FILE at a configuration listing only the bundled Fonts/ (run.py does).
"""
import json
import os
import sys

import cairo
import gi

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo  # noqa: E402

GAP = 12  # points between blocks
BUTTON_HEIGHT, BUTTON_GAP, BUTTON_RADIUS = 44, 8, 10
BULLET_WIDTH = 20


class PageWriter:
    def __init__(self, corpus):
        self.corpus = corpus
        self.width = corpus["width"] - 2 * corpus["margin"]
        self.families = ",".join(corpus["fonts"])

    def layout(self, cr, markup, size, weight="normal", width=None, align=Pango.Alignment.LEFT,
               rtl_context=False):
        layout = PangoCairo.create_layout(cr)
        context = layout.get_context()
        # PyGObject's Pango assumes 96 dpi; the corpus is in points (NOTES.md).
        PangoCairo.context_set_resolution(context, 72)
        layout.context_changed()
        layout.set_font_description(Pango.FontDescription.from_string(f"{self.families} {size}"))
        line_height = int(size * self.corpus["lineHeight"] * Pango.SCALE)
        # An absolute line height on every line, as typeset does (Arabic's own metrics give 2.1 em).
        layout.set_markup(f'<span line_height="{line_height}" weight="{weight}">{markup}</span>', -1)
        layout.set_width(int((width or self.width) * Pango.SCALE))
        layout.set_wrap(Pango.WrapMode.WORD_CHAR)
        layout.set_alignment(align)
        return layout

    def draw_page(self, cr, mockup):
        margin = self.corpus["margin"]
        body = self.corpus["body"]
        rtl = mockup["context"] != "en"
        # With automatic direction (Pango's default) LEFT is the start side of each
        # paragraph's own direction: right for Arabic and Hebrew text.
        start = Pango.Alignment.LEFT
        cr.set_source_rgb(1, 1, 1)
        cr.paint()
        cr.set_source_rgb(0, 0, 0)
        y = margin
        for block in mockup["blocks"]:
            kind = block["kind"]
            if kind in ("title", "label"):
                size = self.corpus["title"] if kind == "title" else body
                layout = self.layout(cr, block["markup"], size, "bold" if kind == "title" else "normal",
                                     align=start)
                y = self.show(cr, layout, margin, y)
            elif kind == "p":
                # Pango aligns LEFT as the start side of the paragraph's own direction.
                layout = self.layout(cr, block["markup"], body)
                y = self.show(cr, layout, margin, y)
            elif kind == "row":
                cell = (self.width - 2 * BUTTON_GAP) / 3
                labels = block["markup"][::-1] if rtl else block["markup"]
                for i, label in enumerate(labels):
                    x = margin + i * (cell + BUTTON_GAP)
                    self.rounded_rectangle(cr, x, y, cell, BUTTON_HEIGHT)
                    cr.set_source_rgb(0, 122 / 255, 1)  # typeset's button: white on system blue
                    cr.fill()
                    cr.set_source_rgb(1, 1, 1)
                    layout = self.layout(cr, label, body, "600", width=cell, align=Pango.Alignment.CENTER)
                    height = layout.get_pixel_extents()[1].height
                    cr.move_to(x, y + (BUTTON_HEIGHT - height) / 2)
                    PangoCairo.show_layout(cr, layout)
                    cr.set_source_rgb(0, 0, 0)
                y += BUTTON_HEIGHT + GAP
            elif kind == "list":
                for _lang, markup in block["markup"]:
                    bullet = self.layout(cr, "•", body, width=BULLET_WIDTH, align=start)
                    text_x = margin if rtl else margin + BULLET_WIDTH
                    bullet_x = margin + self.width - BULLET_WIDTH if rtl else margin
                    cr.move_to(bullet_x, y)
                    PangoCairo.show_layout(cr, bullet)
                    layout = self.layout(cr, markup, body, width=self.width - BULLET_WIDTH, align=start)
                    y = self.show(cr, layout, text_x, y, gap=4)

    def show(self, cr, layout, x, y, gap=GAP):
        cr.move_to(x, y)
        PangoCairo.show_layout(cr, layout)
        return y + layout.get_pixel_extents()[1].height + gap

    @staticmethod
    def rounded_rectangle(cr, x, y, width, height):
        r = BUTTON_RADIUS
        cr.new_sub_path()
        cr.arc(x + width - r, y + r, r, -1.5708, 0)
        cr.arc(x + width - r, y + height - r, r, 0, 1.5708)
        cr.arc(x + r, y + height - r, r, 1.5708, 3.1416)
        cr.arc(x + r, y + r, r, 3.1416, 4.7124)
        cr.close_path()


def main():
    corpus_path, output_format, output = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(corpus_path, encoding="utf-8") as f:
        corpus = json.load(f)
    writer = PageWriter(corpus)
    width, height = corpus["width"], corpus["height"]
    if output_format == "pdf":
        surface = cairo.PDFSurface(output, width, height)
        cr = cairo.Context(surface)
        for mockup in corpus["mockups"]:
            writer.draw_page(cr, mockup)
            cr.show_page()
        surface.finish()
    elif output_format == "svg":
        os.makedirs(output, exist_ok=True)
        for number, mockup in enumerate(corpus["mockups"], 1):
            surface = cairo.SVGSurface(os.path.join(output, f"{number:05d}.svg"), width, height)
            writer.draw_page(cairo.Context(surface), mockup)
            surface.finish()
    else:
        scale = float(sys.argv[4]) if len(sys.argv) > 4 else 2
        os.makedirs(output, exist_ok=True)
        for number, mockup in enumerate(corpus["mockups"], 1):
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, int(width * scale), int(height * scale))
            cr = cairo.Context(surface)
            cr.scale(scale, scale)
            writer.draw_page(cr, mockup)
            surface.write_to_png(os.path.join(output, f"{number:05d}.png"))


if __name__ == "__main__":
    main()
