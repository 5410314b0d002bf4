#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-svg.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <zlib.h>
#include <malloc.h>  /* mallopt, for Batch/FreedMemory.swift */
