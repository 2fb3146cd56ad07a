/* Hostile: writes HTML to stderr -- a script element, an image whose onerror
 * runs code, a backtick trick that makes a naive code-span scanner believe the
 * tag is inside a span, and an HTML comment -- then returns an error code. The
 * message is quoted in the finding; the Markdown report must keep it inert. */
#include "hostile.h"

HOSTILE_ATTENTION(if (n_q >= 0) {
  fprintf(stderr, "<script>alert(1)</script> <img src=x onerror=alert(2)> "
                  "\\`<img src=y onerror=alert(3)>` <!-- swallow\n");
  return 2;
})
HOSTILE_PLUGIN("hostile-html-stderr")
