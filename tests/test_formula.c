/*
 * test_formula.c — formulas in config files (muparser behind formula.h).
 */
#include "formula.h"
#include "helpers.h"

static double eval_ok(const char *text, const vars *v)
{
    double x = -12345;
    cr_assert_eq(formula_eval(text, v, "test", &x), 0, "%s: %s", text, fail_message());
    return x;
}

Test(formula, arithmetic_over_params)
{
    vars v;
    vars_clear(&v);
    vars_set(&v, "n", 1024);
    vars_set(&v, "l", 256);
    vars_set(&v, "s", 3);
    cr_expect_eq(eval_ok("n/l", &v), 4);
    cr_expect_eq(eval_ok("3*s + 1", &v), 10);
    cr_expect_eq(eval_ok("log2(n)", &v), 10);
    cr_expect_eq(eval_ok("2^s", &v), 8);
    cr_expect_eq(eval_ok("pow2(s)", &v), 8);
    cr_expect_eq(eval_ok("ceil(n/(l*s))", &v), 2);
    cr_expect_eq(eval_ok("floor(n/(l*s))", &v), 1);
    cr_expect_eq(eval_ok("min(n, l, s)", &v), 3);
    cr_expect_eq(eval_ok("max(n, l)", &v), 1024);
    cr_expect_eq(eval_ok("4*s + 2*l <= 600", &v), 1, "comparisons give 1 or 0");
    cr_expect_eq(eval_ok("7", &v), 7);
}

Test(formula, overwriting_a_variable)
{
    vars v;
    vars_clear(&v);
    vars_set(&v, "n", 1);
    vars_set(&v, "n", 2);
    cr_expect_eq(v.n, 1);
    cr_expect_eq(*vars_get(&v, "n"), 2);
    cr_expect_null(vars_get(&v, "m"));
}

Test(formula, unknown_variable_is_named)
{
    vars v;
    vars_clear(&v);
    vars_set(&v, "n", 8);
    double x;
    cr_assert_eq(formula_eval("n/q", &v, "run.cfg:7: kernel 'k' blocks", &x), -1);
    cr_expect(strstr(fail_message(), "run.cfg:7: kernel 'k' blocks") != NULL, "%s", fail_message());
    cr_expect(strstr(fail_message(), "n/q") != NULL, "%s", fail_message());
    cr_expect(strstr(fail_message(), "uses 'q', which is not defined (known: n)") != NULL, "%s",
              fail_message());
}

Test(formula, syntax_error_is_reported)
{
    vars v;
    vars_clear(&v);
    double x;
    cr_assert_eq(formula_eval("3 * (2 +", &v, "here", &x), -1);
    cr_expect(strstr(fail_message(), "is not valid") != NULL, "%s", fail_message());
    cr_assert_eq(formula_eval("1/0", &v, "here", &x), -1, "infinity is not a number of blocks");
}

/* Found by fuzz_formula: bytes above 0x7f once crashed muparser's error
 * path.  They are refused, by position, before muparser sees them. */
Test(formula, bytes_outside_ascii_are_refused_by_position)
{
    vars v;
    vars_clear(&v);
    vars_set(&v, "n", 8);
    double x;
    cr_assert_eq(formula_eval("n\377\377+1", &v, "run.cfg:3: kernel 'k' blocks", &x), -1);
    cr_expect(strstr(fail_message(), "run.cfg:3: kernel 'k' blocks: formula has byte 0xff at position 2") != NULL,
              "%s", fail_message());
    cr_assert_eq(formula_eval("n \303\251 2", &v, "here", &x), -1, "UTF-8 é");
    cr_expect(strstr(fail_message(), "byte 0xc3 at position 3") != NULL, "%s", fail_message());
    cr_assert_eq(formula_eval("n\001", &v, "here", &x), -1, "a control byte");
    cr_assert_eq(formula_eval("n\t* 2", &v, "here", &x), 0, "%s", fail_message());
    cr_expect_eq(x, 16, "a tab is a blank");
}

Test(formula, bad_names_are_refused)
{
    vars v;
    vars_clear(&v);
    cr_expect_eq(vars_set(&v, "2n", 1), -1);
    cr_expect_eq(vars_set(&v, "a-b", 1), -1);
    cr_expect_eq(vars_set(&v, "ok_name", 1), 0);
}
