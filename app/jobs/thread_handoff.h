#pragma once
// ThreadSanitizer cannot see Qt's own locks (Qt's mutexes wait on futexes, which it does not
// intercept), so data handed to another thread through Qt's event queue looks raced to it. The
// sending side calls handoff_release(token) before posting and the receiving side handoff_acquire
// (token) first thing: TSan then knows the order that the event queue guarantees. No-ops elsewhere.
#if defined(__SANITIZE_THREAD__)
#define CVZ_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CVZ_TSAN 1
#endif
#endif

#ifdef CVZ_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace cvz {

inline void handoff_release([[maybe_unused]] const void* token) {
#ifdef CVZ_TSAN
    __tsan_release(const_cast<void*>(token));
#endif
}

inline void handoff_acquire([[maybe_unused]] const void* token) {
#ifdef CVZ_TSAN
    __tsan_acquire(const_cast<void*>(token));
#endif
}

}  // namespace cvz
