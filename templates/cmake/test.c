/*
{% for paragraph in banner %}{% if not loop.first %} *
{% endif %}{% for line in paragraph %} * {{ line }}
{% endfor %}{% endfor %} */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "{{ sys }}.h"

/* The sizes this test was generated for. */
#if {% for size in size_checks %}{{ upper }}_N_{{ size.name }} != {{ size.len }}{% if not loop.last %} || \
    {% endif %}{% endfor %}
#error "{{ sys }}.h does not have the sizes this test was generated for"
#endif

{% for table in tables %}{% if table.entries %}{{ table.doc }}static const dalembert_real {{ table.stem }}[{{ table.entries | length }}] = {
{% for entry in table.entries %}    (dalembert_real){{ entry.value }}, /* [{{ loop.index0 }}] {{ entry.name }} */
{% endfor %}};

{% endif %}{% endfor %}/* Every entry NaN, so that an entry a function does not write is caught. */
static void fill_nan(dalembert_real *values, int n)
{
    for (int i = 0; i < n; i++) values[i] = (dalembert_real)NAN;
}

/* 0 when a call returned 0, else 1 after a message on stderr. */
static int check_status(const char *function, int status, dalembert_real t)
{
    if (status == 0) return 0;
    fprintf(stderr, "%s returned %d at t = %g (k > 0: the k-th guarded division met a vanishing "
        "denominator; -1: a numeric solve met a vanishing pivot)\n", function, status, (double)t);
    return 1;
}

/* 0 when every entry of an output is finite, else 1 after a message on stderr. */
static int check_finite(const char *function, const char *output, const dalembert_real *values,
    int n)
{
    for (int i = 0; i < n; i++) {
        if (!isfinite(values[i])) {
            fprintf(stderr, "%s: %s[%d] = %g is not finite\n", function, output, i,
                (double)values[i]);
            return 1;
        }
    }
    return 0;
}

{% for f in functions %}{{ f.doc }}static int call_{{ f.name }}(void)
{
{% for out in f.declared %}    dalembert_real out_{{ out.name }}[{{ out.len }}];
    fill_nan(out_{{ out.name }}, {{ out.len }});
{% endfor %}    int status = {{ sys }}_{{ f.name }}({{ f.arguments }});
    if (check_status("{{ sys }}_{{ f.name }}", status, 0)) return 1;
{% for out in f.declared %}    if (check_finite("{{ sys }}_{{ f.name }}", "{{ out.name }}", out_{{ out.name }}, {{ out.len }})) return 1;
{% endfor %}    return 0;
}

{% endfor %}{% if integrated %}{% set f = integrated %}{% set n = f.xdot_len %}/* xdot = d(x)/dt at (t, x) by {{ sys }}_{{ f.name }}, checked (its other outputs are scratch). */
static int rates(dalembert_real t, const dalembert_real *x, dalembert_real *xdot)
{
{% for out in f.declared %}    dalembert_real out_{{ out.name }}[{{ out.len }}];
    fill_nan(out_{{ out.name }}, {{ out.len }});
{% endfor %}    fill_nan(xdot, {{ n }});
    int status = {{ sys }}_{{ f.name }}({{ f.arguments }});
    if (check_status("{{ sys }}_{{ f.name }}", status, t)) return 1;
    return check_finite("{{ sys }}_{{ f.name }}", "xdot", xdot, {{ n }});
}

/* {{ steps }} steps of the classic fourth-order Runge-Kutta method, step {{ step }}, from the nominal
 * state: the final state in x. */
static int integrate(dalembert_real *x)
{
    const dalembert_real h = (dalembert_real){{ step }};
    dalembert_real k1[{{ n }}], k2[{{ n }}], k3[{{ n }}], k4[{{ n }}], y[{{ n }}];
    dalembert_real t = 0;
    for (int i = 0; i < {{ n }}; i++) x[i] = {{ f.x0 }}[i];
    for (int step = 0; step < {{ steps }}; step++) {
        if (rates(t, x, k1)) return 1;
        for (int i = 0; i < {{ n }}; i++) y[i] = x[i] + h / 2 * k1[i];
        if (rates(t + h / 2, y, k2)) return 1;
        for (int i = 0; i < {{ n }}; i++) y[i] = x[i] + h / 2 * k2[i];
        if (rates(t + h / 2, y, k3)) return 1;
        for (int i = 0; i < {{ n }}; i++) y[i] = x[i] + h * k3[i];
        if (rates(t + h, y, k4)) return 1;
        for (int i = 0; i < {{ n }}; i++) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += h;
    }
    return check_finite("the integration", "x", x, {{ n }});
}

/* Prints the final state with the names of its entries. */
static void print_state(const dalembert_real *x)
{
    static const char *const names[{{ n }}] = {
{% for name in f.names %}        {{ name }},
{% endfor %}    };
    printf("{{ sys }}: x at t = {{ end }} after {{ steps }} RK4 steps of {{ sys }}_{{ f.name }}:\n");
    for (int i = 0; i < {{ n }}; i++) printf("  x[%d] = %.{{ digits }}g  (%s)\n", i, (double)x[i], names[i]);
}

{% endif %}int main(void)
{
    int failures = 0;
{% for f in functions %}    failures += call_{{ f.name }}();
{% endfor %}    if (failures > 0) {
        fprintf(stderr, "%d of {{ functions | length }} functions failed at the nominal point\n", failures);
        return EXIT_FAILURE;
    }
{% if integrated %}    dalembert_real x[{{ integrated.xdot_len }}];
    if (integrate(x)) return EXIT_FAILURE;
    print_state(x);
{% else %}    printf("{{ sys }}: every function returned 0 with finite outputs\n");
{% endif %}    return EXIT_SUCCESS;
}
