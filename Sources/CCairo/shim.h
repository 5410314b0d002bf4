#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-svg.h>
#include <pixman.h>  /* glyph compositing for PNG pages, Render/RasterGlyphs.swift */
#include <ft2build.h>
#include FT_FREETYPE_H
#include <zlib.h>
#include <malloc.h>  /* mallopt, for Batch/FreedMemory.swift */
