/* Compiled by every clang the producers test finds (13, 14, 15, 16, 19): global values of
   every kind and property, and instructions from across the IR. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>

int common_int;                                   /* common with -fcommon */
int initialised = 42;
static int internal_counter;
const char greeting[] = "hello";
__attribute__((visibility("hidden"))) int hidden_value = 1;
__attribute__((visibility("protected"))) int protected_value = 2;
__attribute__((weak)) int weak_value = 3;
__attribute__((section(".data.special"), aligned(64))) int placed = 4;
extern int external_value;
__attribute__((weak)) extern int maybe_missing;
_Thread_local int tls_general;
static _Thread_local int tls_local;
__attribute__((tls_model("initial-exec"))) _Thread_local int tls_initial;
__attribute__((tls_model("local-exec"))) _Thread_local int tls_exec;
_Atomic long atomic_total;
long double extended = 1.5L;
__int128 wide = 1;
typedef float v4f __attribute__((vector_size(16)));
v4f vector_value = {1, 2, 3, 4};

int aliased_target(int x) { return x + internal_counter; }
int alias_name(int) __attribute__((alias("aliased_target")));
static int (*resolve_impl(void))(int) { return aliased_target; }
int resolved(int) __attribute__((ifunc("resolve_impl")));

__attribute__((constructor)) static void startup(void) { internal_counter = 7; }
__attribute__((noinline, cold)) static int rarely(int x) { return x * 3; }
__attribute__((aligned(32))) int aligned_fn(void) { return 5; }

int sum(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int total = 0;
    for (int i = 0; i < count; i++)
        total += va_arg(ap, int);
    va_end(ap);
    return total;
}

int dispatch(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 7: return b ? a / b : 0;
    default: return rarely(a);
    }
}

int computed(int i) {
    static void *targets[] = {&&first, &&second};
    goto *targets[i & 1];
first:
    return 10;
second:
    return 20;
}

long atomics(void) {
    atomic_fetch_add(&atomic_total, 5);
    long expected = 5;
    atomic_compare_exchange_strong(&atomic_total, &expected, 9);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_acquire);
    return atomic_load_explicit(&atomic_total, memory_order_relaxed);
}

struct packed { unsigned flag : 1; unsigned value : 7; char tail[3]; };
struct packed make(struct packed p, v4f v) {
    p.flag ^= 1;
    p.value = (unsigned)(v[0] + v[3]);
    return p;
}

int uses_asm(int x) {
    int y;
    __asm__ volatile("mov %1, %0" : "=r"(y) : "r"(x));
    return y + external_value + (&maybe_missing != NULL);
}

double floats(double a, float b, _Complex double c) {
    return a * b + __real__ c - (double)extended + (double)wide + tls_general + tls_local + tls_initial + tls_exec;
}
