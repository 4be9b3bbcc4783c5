/*
 * fit.c — weighted least squares with GSL, and the search over U
 * (see fit.h).
 */
#include "fit.h"
#include "fail.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>

/* Least squares of t ≈ c·T + d·L + e·R on relative errors (each row
 * divided by t), with the columns `terms` allows; coef = {c, d, e}. */
static int solve(const fit_point *pts, int n, double u, int terms, double coef[3], double *cost)
{
    int use[3] = {1, (terms & FIT_LAUNCH) != 0, (terms & FIT_DISPATCH) != 0};
    int columns = use[0] + use[1] + use[2];
    if (n < columns)
        return fail("the fit needs at least %d points, got %d", columns, n);
    gsl_matrix *x = gsl_matrix_alloc((size_t)n, (size_t)columns);
    gsl_vector *y = gsl_vector_alloc((size_t)n), *c = gsl_vector_alloc((size_t)columns);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)columns, (size_t)columns);
    gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc((size_t)n, (size_t)columns);
    for (int i = 0; i < n; i++) {
        double t = pts[i].seconds, row[3] = {pts[i].alpha + pts[i].beta * u, pts[i].launches, pts[i].rounds};
        for (int j = 0, col = 0; j < 3; j++)
            if (use[j])
                gsl_matrix_set(x, (size_t)i, (size_t)col++, row[j] / t);
        gsl_vector_set(y, (size_t)i, 1.0);
    }
    double chisq;
    gsl_set_error_handler_off();
    int status = gsl_multifit_linear(x, y, c, cov, &chisq, work);
    for (int j = 0, col = 0; j < 3; j++)
        coef[j] = use[j] ? gsl_vector_get(c, (size_t)col++) : 0;
    *cost = chisq;
    gsl_multifit_linear_free(work);
    gsl_matrix_free(x);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(c);
    return status ? fail("least squares failed: %s", gsl_strerror(status)) : 0;
}

int fit_at_u(const fit_point *pts, int n, double u, int terms, fit_result *out)
{
    double coef[3], cost;
    if (solve(pts, n, u, terms, coef, &cost) < 0)
        return -1;
    /* a negative launch or dispatch cost means none: drop it and refit */
    while ((coef[1] < 0 && (terms & FIT_LAUNCH)) || (coef[2] < 0 && (terms & FIT_DISPATCH))) {
        terms &= coef[1] < coef[2] ? ~FIT_LAUNCH : ~FIT_DISPATCH;
        if (solve(pts, n, u, terms, coef, &cost) < 0)
            return -1;
    }
    if (!(coef[0] > 0))
        return fail("the fit gives %g seconds per cycle: the model cannot explain these times", coef[0]);
    out->u = u;
    out->seconds_per_cycle = coef[0];
    out->launch_seconds = coef[1];
    out->dispatch_seconds = coef[2];
    out->cost = cost;
    return 0;
}

static double cost_at(const fit_point *pts, int n, double log_u, int terms)
{
    fit_result r;
    return fit_at_u(pts, n, exp(log_u), terms, &r) < 0 ? INFINITY : r.cost;
}

int fit_calibrate(const fit_point *pts, int n, double u_lo, double u_hi, int terms, fit_result *out)
{
    /* coarse grid in log U, then golden-section search around the best */
    enum { GRID = 41 };
    double lo = log(u_lo), hi = log(u_hi), best = lo, best_cost = INFINITY;
    for (int i = 0; i < GRID; i++) {
        double x = lo + (hi - lo) * i / (GRID - 1), c = cost_at(pts, n, x, terms);
        if (c < best_cost)
            best = x, best_cost = c;
    }
    if (!isfinite(best_cost))
        return fit_at_u(pts, n, u_lo, terms, out); /* reports why */
    double step = (hi - lo) / (GRID - 1);
    double a = fmax(lo, best - step), b = fmin(hi, best + step);
    const double g = (sqrt(5.0) - 1) / 2;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = cost_at(pts, n, x1, terms), f2 = cost_at(pts, n, x2, terms);
    while (b - a > 1e-9) {
        if (f1 < f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - g * (b - a), f1 = cost_at(pts, n, x1, terms);
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + g * (b - a), f2 = cost_at(pts, n, x2, terms);
        }
    }
    double x = (a + b) / 2;
    if (cost_at(pts, n, x, terms) > best_cost)
        x = best;
    return fit_at_u(pts, n, exp(x), terms, out);
}

double fit_relative_error(const fit_point *p, const fit_result *f)
{
    double model = f->seconds_per_cycle * (p->alpha + p->beta * f->u) + f->launch_seconds * p->launches +
                   f->dispatch_seconds * p->rounds;
    return (model - p->seconds) / p->seconds;
}
