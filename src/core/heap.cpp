#include "core/heap.h"

#include <malloc.h>

namespace pv {

void tune_heap() {
  ::mallopt(M_MMAP_THRESHOLD, int(kHeapMmapAbove));
  ::mallopt(M_TOP_PAD, int(kHeapPad));
}

}  // namespace pv
