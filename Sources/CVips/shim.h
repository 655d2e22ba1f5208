// The few libvips calls Spotter makes, as plain C functions Swift can call.
//
// libvips' operations take their optional arguments as a NULL-terminated C variadic list
// (vips_thumbnail_buffer(buf, len, &out, width, "height", h, NULL)), which Swift cannot call. Each wrapper
// below fixes the options it needs and nothing else; libvips itself does all the work.
#ifndef SPOTTER_CVIPS_SHIM_H
#define SPOTTER_CVIPS_SHIM_H

#include <malloc.h>
#include <vips/vips.h>

// glibc's mallopt(M_ARENA_MAX, n): Swift's Glibc module does not carry malloc.h.
static inline int spotter_malloc_arena_max(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

static inline void spotter_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
    gpointer data) {}

// Starts libvips once for the process (VIPS_INIT is itself idempotent). The operation cache is off: every
// photo is new, so caching only holds memory. Its warnings (a truncated file warns per tile) are dropped: the
// failures that matter come back as errors, and uploads are the uploader's data, not our log. Returns 0 on success.
static inline int spotter_vips_start(void) {
    if (VIPS_INIT("spotter")) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, spotter_vips_drop_log, NULL);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

// Opens an image from memory reading its header only: width, height and bands are known, no pixel is decoded.
static inline VipsImage *spotter_vips_header(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

// Decodes and shrinks to fit `side`×`side` (shrink-on-load where the format allows), upright by its EXIF
// orientation, never enlarged, colour-managed to sRGB when it carries a profile, failing on truncated data
// rather than padding it grey.
static inline int spotter_vips_thumbnail_buffer(const void *buf, size_t len, int side, VipsImage **out) {
    // libvips 8.14's thumbnail_buffer does not hand its own fail_on to the loader; the option string does.
    return vips_thumbnail_buffer((void *)buf, len, out, side, "height", side, "size", VIPS_SIZE_DOWN,
        "fail_on", VIPS_FAIL_ON_TRUNCATED, "option_string", "fail_on=truncated", NULL);
}

// The same from an image already in memory (the small renditions are made from the large one).
static inline int spotter_vips_thumbnail_image(VipsImage *in, int side, VipsImage **out) {
    return vips_thumbnail_image(in, out, side, "height", side, "size", VIPS_SIZE_DOWN, NULL);
}

// Flattens an alpha channel onto white (alpha is 0…65535 in 16-bit images).
static inline int spotter_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[] = {255.0, 255.0, 255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    gboolean sixteen = in->Type == VIPS_INTERPRETATION_RGB16 || in->Type == VIPS_INTERPRETATION_GREY16;
    int status = vips_flatten(in, out, "background", background, "max_alpha", sixteen ? 65535.0 : 255.0, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

// Three 8-bit bands of sRGB, whatever came in (grey, CMYK, 16 bits).
static inline int spotter_vips_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL;
    if (vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
    int status = vips_cast(srgb, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(srgb);
    return status;
}

// A baseline JPEG with every metadata block stripped: no EXIF, XMP, IPTC or ICC profile.
static inline int spotter_vips_jpeg_stripped(VipsImage *in, int quality, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

// Saves in the format a suffix names, with options ("[Q=90]"): how the tests make their photos.
static inline int spotter_vips_save_buffer(VipsImage *in, const char *suffix, void **buf, size_t *len) {
    return vips_image_write_to_buffer(in, suffix, buf, len, NULL);
}

// A black image of any size, computed lazily: how the tests make a 50-megapixel PNG of a few kilobytes.
static inline int spotter_vips_black(int width, int height, int bands, VipsImage **out) {
    return vips_black(out, width, height, "bands", bands, NULL);
}

// Whether a metadata field is present on an image (tests read "exif-data", "xmp-data", "iptc-data" …).
static inline int spotter_vips_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

#endif
