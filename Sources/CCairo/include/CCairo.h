#ifndef EGOFIX_CCAIRO_H
#define EGOFIX_CCAIRO_H

/* cairo, loaded when the first share card is drawn rather than when egofix starts.
 *
 * Linking libcairo would load it, and the X11, xcb, fontconfig, freetype, pixman and png
 * libraries it brings, into every egofix process: about 3 ms at each start, for a library only
 * the share cards use. Here the cairo_* functions the cards call are defined by loader.c, which
 * opens libcairo.so.2 with dlopen on first use and forwards each call. Call egofix_cairo_load()
 * first: until it has returned 1, no cairo_* function may be called. */

#include <cairo/cairo.h>

/* Every cairo function egofix calls: X(return type, name, parameters, arguments) for those that
 * return a value, V(name, parameters, arguments) for those that return nothing. A call to one not
 * listed here fails to link. */
#define EGOFIX_CAIRO_FUNCTIONS(X, V) \
    X(int, cairo_format_stride_for_width, (cairo_format_t format, int width), (format, width)) \
    X(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height), (format, width, height)) \
    X(cairo_surface_t *, cairo_image_surface_create_for_data, (unsigned char *data, cairo_format_t format, int width, int height, int stride), (data, format, width, height, stride)) \
    X(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *surface), (surface)) \
    X(int, cairo_image_surface_get_stride, (cairo_surface_t *surface), (surface)) \
    X(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface)) \
    V(cairo_surface_flush, (cairo_surface_t *surface), (surface)) \
    V(cairo_surface_destroy, (cairo_surface_t *surface), (surface)) \
    X(cairo_t *, cairo_create, (cairo_surface_t *target), (target)) \
    V(cairo_destroy, (cairo_t *cr), (cr)) \
    X(cairo_status_t, cairo_status, (cairo_t *cr), (cr)) \
    X(const char *, cairo_status_to_string, (cairo_status_t status), (status)) \
    V(cairo_paint, (cairo_t *cr), (cr)) \
    V(cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), (cr, red, green, blue)) \
    V(cairo_set_line_width, (cairo_t *cr, double width), (cr, width)) \
    V(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y)) \
    V(cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y)) \
    V(cairo_stroke, (cairo_t *cr), (cr)) \
    X(cairo_font_options_t *, cairo_font_options_create, (void), ()) \
    V(cairo_font_options_destroy, (cairo_font_options_t *options), (options)) \
    V(cairo_font_options_set_antialias, (cairo_font_options_t *options, cairo_antialias_t antialias), (options, antialias)) \
    V(cairo_font_options_set_hint_style, (cairo_font_options_t *options, cairo_hint_style_t hint_style), (options, hint_style)) \
    V(cairo_font_options_set_hint_metrics, (cairo_font_options_t *options, cairo_hint_metrics_t hint_metrics), (options, hint_metrics)) \
    V(cairo_font_options_set_subpixel_order, (cairo_font_options_t *options, cairo_subpixel_order_t subpixel_order), (options, subpixel_order)) \
    V(cairo_set_font_options, (cairo_t *cr, const cairo_font_options_t *options), (cr, options)) \
    V(cairo_select_font_face, (cairo_t *cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight), (cr, family, slant, weight)) \
    V(cairo_set_font_face, (cairo_t *cr, cairo_font_face_t *font_face), (cr, font_face)) \
    X(cairo_status_t, cairo_font_face_status, (cairo_font_face_t *font_face), (font_face)) \
    V(cairo_set_font_size, (cairo_t *cr, double size), (cr, size)) \
    V(cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents), (cr, utf8, extents)) \
    V(cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8)) \
    X(cairo_scaled_font_t *, cairo_get_scaled_font, (cairo_t *cr), (cr)) \
    X(cairo_scaled_font_t *, cairo_scaled_font_reference, (cairo_scaled_font_t *scaled_font), (scaled_font)) \
    V(cairo_scaled_font_destroy, (cairo_scaled_font_t *scaled_font), (scaled_font)) \
    X(cairo_status_t, cairo_scaled_font_status, (cairo_scaled_font_t *scaled_font), (scaled_font)) \
    V(cairo_scaled_font_text_extents, (cairo_scaled_font_t *scaled_font, const char *utf8, cairo_text_extents_t *extents), (scaled_font, utf8, extents))

/* Opens libcairo.so.2 and binds every function above, once per process (later calls return the
 * first answer). 1 when all are bound; 0 otherwise, and egofix_cairo_load_error() says why. */
int egofix_cairo_load(void);

/* Why the load failed ("" when it did not). */
const char *egofix_cairo_load_error(void);

/* A font face for the font file at `path` (its first face), read with FreeType (which libcairo
 * brings) rather than found through fontconfig, whose set-up (reading its configuration and
 * caches) costs more than drawing all of a site's cards. Made once per process and kept; later
 * calls return the first answer, whatever their path. NULL when cairo is not loaded, the file
 * cannot be read or a function is missing: then select the face by family name instead. */
cairo_font_face_t *egofix_cairo_font_file(const char *path);

#endif
