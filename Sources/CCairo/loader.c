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
