/*
 * fit.c — weighted least squares with GSL, and the search over U
 * (see fit.h).
 */
#include "fit.h"
#include "fail.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>

/* Fit t ≈ c·T + d·L by least squares on relative errors: each row is
 * divided by t, so the residuals are relative. */
static int solve(const fit_point *pts, int n, double u, int columns, double coef[2], double *cost)
{
    if (n < columns)
        return fail("the fit needs at least %d points, got %d", columns, n);
    gsl_matrix *x = gsl_matrix_alloc((size_t)n, (size_t)columns);
    gsl_vector *y = gsl_vector_alloc((size_t)n), *c = gsl_vector_alloc((size_t)columns);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)columns, (size_t)columns);
    gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc((size_t)n, (size_t)columns);
    for (int i = 0; i < n; i++) {
        double t = pts[i].seconds;
        gsl_matrix_set(x, (size_t)i, 0, (pts[i].alpha + pts[i].beta * u) / t);
        if (columns == 2)
            gsl_matrix_set(x, (size_t)i, 1, pts[i].launches / t);
        gsl_vector_set(y, (size_t)i, 1.0);
    }
    double chisq;
    gsl_set_error_handler_off();
    int status = gsl_multifit_linear(x, y, c, cov, &chisq, work);
    coef[0] = gsl_vector_get(c, 0);
    coef[1] = columns == 2 ? gsl_vector_get(c, 1) : 0;
    *cost = chisq;
    gsl_multifit_linear_free(work);
    gsl_matrix_free(x);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(c);
    return status ? fail("least squares failed: %s", gsl_strerror(status)) : 0;
}

int fit_at_u(const fit_point *pts, int n, double u, int with_launch, fit_result *out)
{
    double coef[2], cost;
    if (solve(pts, n, u, with_launch ? 2 : 1, coef, &cost) < 0)
        return -1;
    if (with_launch && coef[1] < 0 && solve(pts, n, u, 1, coef, &cost) < 0)
        return -1; /* a negative launch cost means none: refit without it */
    if (!(coef[0] > 0))
        return fail("the fit gives %g seconds per cycle: the model cannot explain these times", coef[0]);
    out->u = u;
    out->seconds_per_cycle = coef[0];
    out->launch_seconds = coef[1];
    out->cost = cost;
    return 0;
}

static double cost_at(const fit_point *pts, int n, double log_u, int with_launch)
{
    fit_result r;
    return fit_at_u(pts, n, exp(log_u), with_launch, &r) < 0 ? INFINITY : r.cost;
}

int fit_calibrate(const fit_point *pts, int n, double u_lo, double u_hi, int with_launch, fit_result *out)
{
    /* coarse grid in log U, then golden-section search around the best */
    enum { GRID = 41 };
    double lo = log(u_lo), hi = log(u_hi), best = lo, best_cost = INFINITY;
    for (int i = 0; i < GRID; i++) {
        double x = lo + (hi - lo) * i / (GRID - 1), c = cost_at(pts, n, x, with_launch);
        if (c < best_cost)
            best = x, best_cost = c;
    }
    if (!isfinite(best_cost))
        return fit_at_u(pts, n, u_lo, with_launch, out); /* reports why */
    double step = (hi - lo) / (GRID - 1);
    double a = fmax(lo, best - step), b = fmin(hi, best + step);
    const double g = (sqrt(5.0) - 1) / 2;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = cost_at(pts, n, x1, with_launch), f2 = cost_at(pts, n, x2, with_launch);
    while (b - a > 1e-9) {
        if (f1 < f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - g * (b - a), f1 = cost_at(pts, n, x1, with_launch);
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + g * (b - a), f2 = cost_at(pts, n, x2, with_launch);
        }
    }
    double x = (a + b) / 2;
    if (cost_at(pts, n, x, with_launch) > best_cost)
        x = best;
    return fit_at_u(pts, n, exp(x), with_launch, out);
}

double fit_relative_error(const fit_point *p, const fit_result *f)
{
    double model = f->seconds_per_cycle * (p->alpha + p->beta * f->u) + f->launch_seconds * p->launches;
    return (model - p->seconds) / p->seconds;
}
