#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-svg.h>
#include <pixman.h>  /* glyph compositing for PNG pages, Render/RasterGlyphs.swift */
#include <ft2build.h>
#include FT_FREETYPE_H
#include <zlib.h>
#include <malloc.h>  /* mallopt, for Batch/FreedMemory.swift */

/* FreeType's message for an error code, or NULL. Debian builds FreeType without
   FT_CONFIG_OPTION_ERROR_STRINGS, so FT_Error_String returns NULL; fterrors.h makes the same
   table from fterrdef.h when it is included again with FT_ERRORDEF defined, as it documents. */
static inline const char *typeset_freetype_error_message(int error) {
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERROR_END_LIST }
#include FT_ERRORS_H
    return 0;
}
