/* Forwards egofix's cairo calls to libcairo.so.2, opened on first use (see include/CCairo.h). */

/* The forwarding functions keep cairo's names but stay inside egofix (hidden visibility), so
 * libcairo, once loaded, still binds its own calls to its own functions. */
#pragma GCC visibility push(hidden)
#include "CCairo.h"
#pragma GCC visibility pop

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define EGOFIX_POINTER(ret, name, params, args) static ret(*egofix_p_##name) params;
#define EGOFIX_POINTER_VOID(name, params, args) static void(*egofix_p_##name) params;
EGOFIX_CAIRO_FUNCTIONS(EGOFIX_POINTER, EGOFIX_POINTER_VOID)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    void *library = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "libcairo.so.2: cannot open");
        return;
    }
#define EGOFIX_BIND(ret, name, params, args)                                                     \
    if (!(*(void **)&egofix_p_##name = dlsym(library, #name))) {                                 \
        snprintf(failure, sizeof failure, "libcairo.so.2 has no %s", #name);                     \
        return;                                                                                  \
    }
#define EGOFIX_BIND_VOID(name, params, args) EGOFIX_BIND(void, name, params, args)
    EGOFIX_CAIRO_FUNCTIONS(EGOFIX_BIND, EGOFIX_BIND_VOID)
    loaded = 1;
}

/* FreeType as cairo-ft uses it; its types are opaque here (no FreeType headers needed). */
static pthread_mutex_t font_lock = PTHREAD_MUTEX_INITIALIZER;
static int font_tried;
static cairo_font_face_t *font_face;

static cairo_font_face_t *make_font_face(const char *path) {
    void *library = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!library) return NULL;
    /* dlsym on cairo's handle searches the libraries it depends on, FreeType among them. */
    int (*init)(void **) = (int (*)(void **))dlsym(library, "FT_Init_FreeType");
    int (*new_face)(void *, const char *, long, void **) = (int (*)(void *, const char *, long, void **))dlsym(library, "FT_New_Face");
    cairo_font_face_t *(*create)(void *, int) = (cairo_font_face_t * (*)(void *, int)) dlsym(library, "cairo_ft_font_face_create_for_ft_face");
    dlclose(library); /* the handle egofix_cairo_load opened keeps it loaded */
    if (!init || !new_face || !create) return NULL;
    void *freetype = NULL, *face = NULL;
    if (init(&freetype) != 0 || new_face(freetype, path, 0, &face) != 0) return NULL;
    cairo_font_face_t *made = create(face, 0); /* FT_LOAD_DEFAULT; the card's font options decide the rest */
    if (!made || egofix_p_cairo_font_face_status(made) != CAIRO_STATUS_SUCCESS) return NULL;
    return made; /* kept, with its FreeType face, for the life of the process */
}

cairo_font_face_t *egofix_cairo_font_file(const char *path) {
    if (!egofix_cairo_load()) return NULL;
    pthread_mutex_lock(&font_lock);
    if (!font_tried) {
        font_tried = 1;
        font_face = make_font_face(path);
    }
    cairo_font_face_t *face = font_face;
    pthread_mutex_unlock(&font_lock);
    return face;
}

int egofix_cairo_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *egofix_cairo_load_error(void) {
    pthread_once(&once, load);
    return failure;
}

#pragma GCC visibility push(hidden)
#define EGOFIX_FORWARD(ret, name, params, args) ret name params { return egofix_p_##name args; }
#define EGOFIX_FORWARD_VOID(name, params, args) void name params { egofix_p_##name args; }
EGOFIX_CAIRO_FUNCTIONS(EGOFIX_FORWARD, EGOFIX_FORWARD_VOID)
#pragma GCC visibility pop
