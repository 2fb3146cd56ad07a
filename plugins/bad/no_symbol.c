/* A shared library that forgot to export posverify_impl(). */
int some_other_function(void) { return 42; }
