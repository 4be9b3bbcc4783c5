/*
 * test_fit.c — the calibration recovers known constants from synthetic
 * data (issue 6: within 1%).
 */
#include "fit.h"
#include "helpers.h"
#include "rng.h"

#include <math.h>

static void synthetic(fit_point *pts, int n, double u, double c, double d, double noise, uint64_t seed)
{
    rng g;
    rng_seed(&g, seed);
    for (int i = 0; i < n; i++) {
        /* block compute and block transfers of very different weights, as
         * in the case studies: U matters more for some points than others */
        pts[i].alpha = 1e3 + (double)rng_below(&g, 1000000);
        pts[i].beta = (double)rng_below(&g, 200000);
        pts[i].launches = 1 + (double)rng_below(&g, 400);
        pts[i].rounds = 0;
        double t = c * (pts[i].alpha + pts[i].beta * u) + d * pts[i].launches;
        double jitter = noise * (((double)rng_below(&g, 2001) - 1000) / 1000); /* ±noise */
        pts[i].seconds = t * (1 + jitter);
    }
}

Test(fit, recovers_known_constants_within_one_percent)
{
    fit_point pts[60];
    const double u = 4.7, c = 1 / 1.755e9, d = 2.5e-6;
    synthetic(pts, 60, u, c, d, 0.0, 7);
    fit_result r;
    cr_assert_eq(fit_calibrate(pts, 60, 0.05, 500, FIT_LAUNCH, &r), 0, "%s", fail_message());
    cr_expect(fabs(r.u / u - 1) < 0.01, "U = %g, expected %g", r.u, u);
    cr_expect(fabs(r.seconds_per_cycle / c - 1) < 0.01, "c = %g, expected %g", r.seconds_per_cycle, c);
    cr_expect(fabs(r.launch_seconds / d - 1) < 0.01, "d = %g, expected %g", r.launch_seconds, d);
    for (int i = 0; i < 60; i++)
        cr_expect(fabs(fit_relative_error(&pts[i], &r)) < 1e-6);
}

Test(fit, recovers_constants_under_two_percent_noise)
{
    fit_point pts[200];
    const double u = 12, c = 1e-9, d = 4e-6;
    synthetic(pts, 200, u, c, d, 0.02, 11);
    fit_result r;
    cr_assert_eq(fit_calibrate(pts, 200, 0.05, 500, FIT_LAUNCH, &r), 0, "%s", fail_message());
    cr_expect(fabs(r.u / u - 1) < 0.01, "U = %g, expected %g", r.u, u);
    cr_expect(fabs(r.seconds_per_cycle / c - 1) < 0.01, "c = %g", r.seconds_per_cycle);
    cr_expect(fabs(r.launch_seconds / d - 1) < 0.05, "d = %g (noise makes it the least determined)",
              r.launch_seconds);
}

Test(fit, no_launch_term_when_there_is_none)
{
    fit_point pts[40];
    synthetic(pts, 40, 3, 2e-9, 0, 0, 5);
    fit_result r;
    cr_assert_eq(fit_calibrate(pts, 40, 0.05, 500, FIT_LAUNCH, &r), 0, "%s", fail_message());
    cr_expect(r.launch_seconds < 1e-12, "d = %g", r.launch_seconds);
    cr_expect(fabs(r.u / 3 - 1) < 0.01, "U = %g", r.u);
}

Test(fit, too_few_points_is_an_error)
{
    fit_point p = {1, 1, 1, 1, 0};
    fit_result r;
    cr_expect_eq(fit_at_u(&p, 1, 1, FIT_LAUNCH, &r), -1);
    cr_expect(strstr(fail_message(), "at least 2 points") != NULL, "%s", fail_message());
}

Test(fit, recovers_a_dispatch_cost_per_round_of_blocks)
{
    fit_point pts[120];
    const double u = 6, c = 1 / 1.9e9, d = 4e-6, e = 4e-8;
    synthetic(pts, 120, u, c, d, 0.0, 13);
    rng g;
    rng_seed(&g, 99);
    for (int i = 0; i < 120; i++) {
        pts[i].rounds = 1 + (double)rng_below(&g, 50000);
        pts[i].seconds += e * pts[i].rounds;
    }
    fit_result r;
    cr_assert_eq(fit_calibrate(pts, 120, 0.05, 500, FIT_LAUNCH | FIT_DISPATCH, &r), 0, "%s", fail_message());
    cr_expect(fabs(r.u / u - 1) < 0.01, "U = %g, expected %g", r.u, u);
    cr_expect(fabs(r.seconds_per_cycle / c - 1) < 0.01, "c = %g", r.seconds_per_cycle);
    cr_expect(fabs(r.launch_seconds / d - 1) < 0.01, "d = %g", r.launch_seconds);
    cr_expect(fabs(r.dispatch_seconds / e - 1) < 0.01, "e = %g", r.dispatch_seconds);
}
