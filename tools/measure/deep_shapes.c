// The deep graphs of docs/TUNING.md#deep-graphs that `grundy gen` has no
// shape for, as a 0-based edge list on stdout (convert with `grundy convert
// FILE.el FILE.gcsr`):
//   cc -O2 tools/measure/deep_shapes.c -o /tmp/deep_shapes
//   /tmp/deep_shapes three-of-ten > /tmp/g310.el   # 10^7 nodes on a line, each to 3 of the next 10
//   /tmp/deep_shapes wide-then-deep > /tmp/mix.el  # uniform 10^6 / 10^7, every 7th node to a 5*10^6-node chain
// Positions are shuffled into ids (xorshift64, fixed seeds), so that
// consecutive nodes of a path are far apart in memory, as in chain-m.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

// id[p]: the id of position p, a shuffle of 0..n-1.
static uint32_t* shuffled_ids(size_t n) {
  uint32_t* id = malloc(n * sizeof(uint32_t));
  for (size_t i = 0; i < n; i++) id[i] = (uint32_t)i;
  for (size_t i = n - 1; i > 0; i--) {
    const size_t j = next() % (i + 1);
    const uint32_t t = id[i];
    id[i] = id[j];
    id[j] = t;
  }
  return id;
}

static void three_of_ten(void) {
  const size_t n = 10000000;
  state = 12345;
  const uint32_t* id = shuffled_ids(n);
  printf("# tokens: %u %u %u\n", id[0], id[1], id[2]);
  for (size_t p = 0; p + 1 < n; p++) {
    const size_t room = n - 1 - p, span = room < 10 ? room : 10, want = room < 3 ? room : 3;
    int picked[10] = {0};
    for (size_t c = 0; c < want;) {
      const size_t k = next() % span;
      if (picked[k]) continue;
      picked[k] = 1;
      c++;
      printf("%u %u\n", id[p], id[p + 1 + k]);
    }
  }
}

static void wide_then_deep(void) {
  const size_t wide = 1000000, chain = 5000000, n = wide + chain;
  state = 777;
  const uint32_t* id = shuffled_ids(n);
  printf("# tokens: %u %u\n", id[0], id[wide]);
  for (size_t e = 0; e < 10000000; e++) {  // a uniform DAG on positions 0..wide-1 (self-loops dropped)
    size_t a = next() % wide, b = next() % wide;
    if (a == b) continue;
    if (a > b) {
      const size_t t = a;
      a = b;
      b = t;
    }
    printf("%u %u\n", id[a], id[b]);
  }
  for (size_t u = 0; u < wide; u += 7) printf("%u %u\n", id[u], id[wide]);
  for (size_t i = 0; i + 1 < chain; i++) printf("%u %u\n", id[wide + i], id[wide + i + 1]);
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "three-of-ten") == 0) {
    three_of_ten();
  } else if (argc == 2 && strcmp(argv[1], "wide-then-deep") == 0) {
    wide_then_deep();
  } else {
    fprintf(stderr, "usage: deep_shapes three-of-ten|wide-then-deep > FILE.el\n");
    return 2;
  }
  return 0;
}
