// What this machine gives, apart from grundy: the figures behind
// docs/TUNING.md#first-touch and the second-thread ceilings quoted in
// results/LOG.md.
//   cc -O3 -march=x86-64-v3 -pthread tools/measure/machine_probe.c -o /tmp/machine_probe
//   /tmp/machine_probe FILE   # FILE: any large file, e.g. a .gcsr
// Prints: how much a second thread gains on a loop that touches no memory;
// what 48 MiB of new anonymous memory costs on its first write, asked for
// page by page, with MADV_POPULATE_WRITE, and with MADV_HUGEPAGE; and what
// the first and later passes over FILE mapped with MAP_POPULATE cost, and a
// pass over it read into one reused buffer instead; and what an AVX2 gather
// from a table in cache costs against the same values loaded one by one
// (docs/TUNING.md#masked-mex: on an Intel host a gather cost more); and
// what a random 4-byte read, a random write and a dependent read (each
// read's value the next index) cost in a 40 MB array, the deep-graph
// renumbering's accesses (docs/TUNING.md#deep-graphs).
#define _GNU_SOURCE
#include <immintrin.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void* spin(void* arg) {
  (void)arg;
  volatile unsigned long x = 0;
  for (unsigned long i = 0; i < 400000000UL; i++) x += i;
  return NULL;
}

// The best of three runs each way: the machine has other tenants.
static void second_thread(void) {
  double one = 1e9, two = 1e9;
  for (int round = 0; round < 3; round++) {
    double t = now();
    spin(NULL);
    if (now() - t < one) one = now() - t;
    pthread_t a, b;
    t = now();
    pthread_create(&a, NULL, spin, NULL);
    pthread_create(&b, NULL, spin, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (now() - t < two) two = now() - t;
  }
  printf("compute loop, best of 3: 1 thread %.3f s, 2 threads (twice the work) %.3f s: a second thread gains %.2fx\n",
         one, two, 2 * one / two);
}

static char* fresh(size_t bytes) {
  char* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) exit(1);
  return p;
}

static void first_touch(void) {
  const size_t bytes = (size_t)48 << 20;
  char* p = fresh(bytes);
  double t = now();
  for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
  printf("48 MiB new memory, a byte per 4 KiB page: %.1f ms\n", (now() - t) * 1e3);
  munmap(p, bytes);

  p = fresh(bytes);
  t = now();
  madvise(p, bytes, MADV_POPULATE_WRITE);
  const double populate = now() - t;
  t = now();
  memset(p, 1, bytes);
  const double first = now() - t;
  t = now();
  memset(p, 2, bytes);
  printf("48 MiB with MADV_POPULATE_WRITE: %.1f ms, then memset %.1f ms, again %.1f ms\n", populate * 1e3, first * 1e3,
         (now() - t) * 1e3);
  munmap(p, bytes);

  for (int round = 0; round < 2; round++) {
    char* h = aligned_alloc((size_t)2 << 20, bytes);
    madvise(h, bytes, MADV_HUGEPAGE);
    t = now();
    memset(h, 1, bytes);
    printf("48 MiB with MADV_HUGEPAGE, allocation %d: first memset %.1f ms\n", round + 1, (now() - t) * 1e3);
    free(h);
  }
}

// 8 values at a time from a 16 KiB table, by one gather or by 8 loads:
// nanoseconds a value, the best of three rounds.
static void gathers(void) {
  enum { kTable = 4096, kIds = 1 << 20, kRepeat = 50 };
  uint32_t* table = aligned_alloc(64, kTable * sizeof(uint32_t));
  uint32_t* ids = aligned_alloc(64, kIds * sizeof(uint32_t));
  for (int i = 0; i < kTable; i++) table[i] = (uint32_t)i;
  uint64_t state = 88172645463325252ULL;
  for (int i = 0; i < kIds; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    ids[i] = (uint32_t)(state % kTable);
  }
  double gather = 1e9, loads = 1e9;
  uint64_t check = 0;
  for (int round = 0; round < 3; round++) {
    double t = now();
    __m256i acc = _mm256_setzero_si256();
    for (int r = 0; r < kRepeat; r++)
      for (int i = 0; i < kIds; i += 8)
        acc = _mm256_add_epi32(acc, _mm256_i32gather_epi32((const int*)table,
                                                           _mm256_loadu_si256((const __m256i*)(ids + i)), 4));
    const double gather_round = now() - t;
    if (gather_round < gather) gather = gather_round;
    check += (uint32_t)_mm256_extract_epi32(acc, 0);
    t = now();
    uint64_t sum = 0;
    for (int r = 0; r < kRepeat; r++)
      for (int i = 0; i < kIds; i++) sum += table[ids[i]];
    const double loads_round = now() - t;
    if (loads_round < loads) loads = loads_round;
    check += sum;
  }
  const double values = (double)kIds * kRepeat;
  printf("8 values from a table in cache, best of 3: one AVX2 gather %.2f ns a value, 8 loads %.2f ns a value (%llu)\n",
         gather / values * 1e9, loads / values * 1e9, (unsigned long long)(check & 1));
  free(table);
  free(ids);
}

// 10^7 reads and writes at shuffled indices of a 40 MB array: ns an access,
// the best of three rounds; the dependent chase over 10^6 steps.
static void random_lines(void) {
  enum { kN = 10000000, kChase = 1000000 };
  uint32_t* a = malloc(kN * sizeof(uint32_t));
  uint32_t* idx = malloc(kN * sizeof(uint32_t));
  for (uint32_t i = 0; i < kN; i++) a[i] = idx[i] = i;
  uint64_t state = 88172645463325252ULL;
  for (uint32_t i = kN - 1; i > 0; i--) {  // one cycle through every index (Sattolo), for the chase
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const uint32_t j = (uint32_t)(state % i), t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  double read = 1e9, write = 1e9, chase = 1e9;
  uint64_t check = 0;
  for (int round = 0; round < 3; round++) {
    double t = now();
    for (uint32_t i = 0; i < kN; i++) check += a[idx[i]];
    const double read_round = now() - t;
    if (read_round < read) read = read_round;
    t = now();
    for (uint32_t i = 0; i < kN; i++) a[idx[i]] = i;
    const double write_round = now() - t;
    if (write_round < write) write = write_round;
    t = now();
    uint32_t u = 0;
    for (uint32_t i = 0; i < kChase; i++) u = idx[u];
    const double chase_round = now() - t;
    if (chase_round < chase) chase = chase_round;
    check += u;
  }
  printf("40 MB array, best of 3: a random read %.1f ns, a random write %.1f ns, a dependent read %.1f ns (%llu)\n",
         read / kN * 1e9, write / kN * 1e9, chase / kChase * 1e9, (unsigned long long)(check & 1));
  free(a);
  free(idx);
}

static void file_passes(const char* path) {
  const int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    perror(path);
    exit(1);
  }
  double t = now();
  const uint32_t* w = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (w == MAP_FAILED) exit(1);
  printf("%s (%.0f MB) mapped with MAP_POPULATE: %.1f ms\n", path, st.st_size / 1e6, (now() - t) * 1e3);
  const size_t words = st.st_size / 4;
  for (int pass = 0; pass < 3; pass++) {
    t = now();
    uint32_t top = 0;
    for (size_t i = 0; i < words; i++) top = top > w[i] ? top : w[i];
    printf("  pass %d over it: %.1f ms (max word %u)\n", pass + 1, (now() - t) * 1e3, top);
  }
  munmap((void*)w, st.st_size);
  // The same pass over the file read 256 KiB at a time into one buffer
  // (grundy batch's windows), read() included.
  const size_t chunk = (size_t)256 << 10;
  uint32_t* buf = aligned_alloc(4096, chunk);
  t = now();
  uint32_t top = 0;
  for (off_t at = 0; at < st.st_size;) {
    const ssize_t got = pread(fd, buf, chunk, at);
    if (got <= 0) break;
    for (size_t i = 0; i < (size_t)got / 4; i++) top = top > buf[i] ? top : buf[i];
    at += got;
  }
  printf("  read 256 KiB at a time into one buffer, and the pass: %.1f ms (max word %u)\n", (now() - t) * 1e3, top);
  free(buf);
  close(fd);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: machine_probe FILE\n");
    return 2;
  }
  second_thread();
  first_touch();
  gathers();
  random_lines();
  file_passes(argv[1]);
  return 0;
}
