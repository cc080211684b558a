// A three-stage pipeline over pointers: produce (one at a time, in order),
// work (in parallel), emit (one at a time, in input order). What batch
// needs to split a stream while earlier instances are solved and to print
// results in order as soon as they are ready.
#pragma once

#include <tbb/parallel_pipeline.h>

#include <cstddef>

namespace grundy {

/// produce() returns the next item, or nullptr at the end; work(item)
/// returns it (done); emit(item) takes it. At most `in_flight` items are
/// between produce and emit at once.
template <class T, class Produce, class Work, class Emit>
void ordered_pipeline(std::size_t in_flight, const Produce& produce, const Work& work, const Emit& emit) {
  tbb::parallel_pipeline(in_flight, tbb::make_filter<void, T*>(tbb::filter_mode::serial_in_order,
                                                               [&](tbb::flow_control& fc) {
                                                                 T* item = produce();
                                                                 if (item == nullptr) fc.stop();
                                                                 return item;
                                                               }) &
                                        tbb::make_filter<T*, T*>(tbb::filter_mode::parallel, work) &
                                        tbb::make_filter<T*, void>(tbb::filter_mode::serial_in_order, emit));
}

}  // namespace grundy
