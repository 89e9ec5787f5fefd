"""The worker pool behind `--threads N`: `tosa_xdsl_parallel_for`, written in LLVM IR.

Code compiled with threads (the `outline-parallel-loops` pass, docs/native.md) calls

    void tosa_xdsl_parallel_for(void (*fn)(int64_t lo, int64_t hi, void *ctx), void *ctx,
                                int64_t lb, int64_t ub, int64_t threads);

which runs fn over [lb, ub) split into min(4 * threads, ub - lb) contiguous chunks, taken
in turn by the calling thread and threads - 1 workers of a persistent pool, and returns when
every chunk is done. (Four chunks per thread: on a loaded machine a worker may wake late, and
the threads that are running then take its share.) Why LLVM IR: native code depends only on llvmlite (no C compiler at run time),
so the pool is compiled by the same LLVM as the model, from this text, and calls the C
library's POSIX threads (pthread_create, mutexes, condition variables), which the process
already has (the JIT resolves them like malloc; a shared library links them with -lpthread).

The protocol (every shared variable is read and written under one mutex, so there is no
data race by construction; only `fn` and the spins' atomic peeks below run outside it):

* a job is (fn, ctx, lb, n, chunks, next, done); chunk i is [lb + n*i/chunks,
  lb + n*(i+1)/chunks), so chunks partition [lb, ub) exactly;
* the caller publishes a job, wakes the workers, then takes chunks itself (`next++` under
  the mutex) until none is left, and waits until `done == chunks`; a worker takes chunks
  the same way and, when none is left, spins a while (below), then sleeps on a condition
  variable. A chunk is taken
  exactly once, and the caller only waits for chunks a live worker took: a worker that
  could not be created (pthread_create failed), or that is slow to wake, costs speed, never
  correctness or a hang;
* one job at a time: a call made while a job is running (another Python thread calling a
  compiled module, or a nested call) runs its whole range on its own thread, serially;
* threads <= 1 or fewer than two iterations: fn(lb, ub, ctx) directly, no locking;
* the pool grows to the largest threads - 1 asked for (at most MAX_WORKERS) and is reused by
  every module of the process; workers are created with every signal blocked (signals are
  the main thread's business); `tosa_xdsl_thread_pool_shutdown()` joins them (run at
  interpreter exit, and by the tests to check that no thread is left behind).

Two bounded spins (the only reads outside the mutex: atomic peeks at `job_seq` and
`job_done`, whose stores are atomic; what a peek sees is decided again under the mutex, so
the protocol above is unchanged and a spin can only end early, never skip work):

* an idle worker watches `job_seq` (bumped by each publish) for SPIN_WORKER rounds of the
  CPU's pause hint before sleeping on the condition variable: an inference calls its
  parallel nests microseconds apart, and waking a sleeping thread costs far more;
* the caller, done with the chunks it could take, watches `job_done` for SPIN_CALLER rounds
  before sleeping: the workers are finishing their last chunks.

Why (bench/threads.py --model forkjoin, jobs of a busy loop called back to back, the fastest
tenth of the calls: those that had both vCPUs of the shared 2-vCPU machine): with a worker
that sleeps after each job, no job under ~70 us got faster at 2 threads (a wake-up costs tens
of microseconds on this virtual machine, and a late worker that takes a chunk makes the
caller wait for it), and the median of 32-256-iteration jobs was 2-4x the single thread's;
with both spins a 4.5 us job took 2.9 us, a 72 us one 37 us, and in that run (load average
~5) the medians matched one thread's within 2% (later runs at the same load had medians off
both ways: the neighbours decide them). Models: docs/native.md ("The work threshold, ..."). The cost: up to ~50 us of one CPU after the last job of an inference (the
worker's watch), and the pause rounds are a count, not a time (~26 ns each on the bench's Zen 4
under KVM). An earlier variant that only had the worker spin, measured with a Python call
between jobs, could not catch a next job and measured slower.

Initialisation (mutex and condition variables through pthread_*_init, portable, instead of
static initialisers whose bytes differ between C libraries) happens once, on the first
threaded call, guarded by an atomic compare-and-swap. The pthread objects get 128 bytes
each, more than glibc, musl or macOS need.
"""

from __future__ import annotations

import os
import platform
import signal
import threading
from typing import Any

SYMBOL = "tosa_xdsl_parallel_for"
SHUTDOWN = "tosa_xdsl_thread_pool_shutdown"
SIZE = "tosa_xdsl_thread_pool_size"
MAX_WORKERS = 256
CHUNKS_PER_THREAD = 4
MAX_CHUNKS = 4096
SPIN_WORKER = 2000  # rounds (~26 ns each here: ~50 us) an idle worker watches for the next job, then sleeps
SPIN_CALLER = 2000  # rounds (~50 us) the caller watches for the workers' last chunks, then sleeps

_IR = r"""
@state = internal global i32 0, align 4
@mutex = internal global [128 x i8] zeroinitializer, align 16
@work_cv = internal global [128 x i8] zeroinitializer, align 16
@done_cv = internal global [128 x i8] zeroinitializer, align 16
@job_fn = internal global ptr null, align 8
@job_ctx = internal global ptr null, align 8
@job_lb = internal global i64 0, align 8
@job_n = internal global i64 0, align 8
@job_chunks = internal global i64 0, align 8
@job_next = internal global i64 0, align 8
@job_done = internal global i64 0, align 8
@job_active = internal global i32 0, align 4
@job_seq = internal global i64 0, align 8
@shutdown = internal global i32 0, align 4
@nworkers = internal global i64 0, align 8
@workers = internal global [MAX_WORKERS x i64] zeroinitializer, align 16

declare i32 @pthread_mutex_init(ptr, ptr)
declare i32 @pthread_mutex_lock(ptr)
declare i32 @pthread_mutex_unlock(ptr)
declare i32 @pthread_cond_init(ptr, ptr)
declare i32 @pthread_cond_wait(ptr, ptr)
declare i32 @pthread_cond_broadcast(ptr)
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_join(i64, ptr)
declare i32 @pthread_sigmask(i32, ptr, ptr)
declare i32 @sigfillset(ptr)
declare i32 @sched_yield()
PAUSE_DECL

; state: 0 never initialised, 1 being initialised, 2 ready
define internal void @ensure_init() {
entry:
  %s0 = load atomic i32, ptr @state acquire, align 4
  %ready0 = icmp eq i32 %s0, 2
  br i1 %ready0, label %done, label %try
try:
  %r = cmpxchg ptr @state, i32 0, i32 1 seq_cst seq_cst
  %won = extractvalue { i32, i1 } %r, 1
  br i1 %won, label %init, label %wait
init:
  %a = call i32 @pthread_mutex_init(ptr @mutex, ptr null)
  %b = call i32 @pthread_cond_init(ptr @work_cv, ptr null)
  %c = call i32 @pthread_cond_init(ptr @done_cv, ptr null)
  store atomic i32 2, ptr @state release, align 4
  br label %done
wait:
  %s = load atomic i32, ptr @state acquire, align 4
  %ready = icmp eq i32 %s, 2
  br i1 %ready, label %done, label %yield
yield:
  %y = call i32 @sched_yield()
  br label %wait
done:
  ret void
}

; run chunk %i of the job; called and returns with the mutex held
define internal void @run_chunk(i64 %i) {
entry:
  %fn = load ptr, ptr @job_fn, align 8
  %ctx = load ptr, ptr @job_ctx, align 8
  %lb = load i64, ptr @job_lb, align 8
  %n = load i64, ptr @job_n, align 8
  %c = load i64, ptr @job_chunks, align 8
  %a = mul i64 %n, %i
  %q0 = udiv i64 %a, %c
  %lo = add i64 %lb, %q0
  %i1 = add i64 %i, 1
  %b = mul i64 %n, %i1
  %q1 = udiv i64 %b, %c
  %hi = add i64 %lb, %q1
  %u = call i32 @pthread_mutex_unlock(ptr @mutex)
  call void %fn(i64 %lo, i64 %hi, ptr %ctx)
  %l = call i32 @pthread_mutex_lock(ptr @mutex)
  %d = load i64, ptr @job_done, align 8
  %d1 = add i64 %d, 1
  store atomic i64 %d1, ptr @job_done monotonic, align 8
  %c2 = load i64, ptr @job_chunks, align 8
  %all = icmp eq i64 %d1, %c2
  br i1 %all, label %wake, label %out
wake:
  %w = call i32 @pthread_cond_broadcast(ptr @done_cv)
  br label %out
out:
  ret void
}

; spin at most %limit rounds while the atomic i64 at %p equals %v (true: it still does);
; called without the mutex, whose holder decides again on what it sees
define internal i1 @spin_while_eq(ptr %p, i64 %v, i64 %limit) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %again ]
  %more = icmp slt i64 %k, %limit
  br i1 %more, label %peek, label %out
peek:
  %x = load atomic i64, ptr %p monotonic, align 8
  %same = icmp eq i64 %x, %v
  br i1 %same, label %again, label %out
again:
  PAUSE_CALL
  %k1 = add i64 %k, 1
  br label %loop
out:
  ret i1 %more
}

define internal ptr @worker(ptr %unused) {
entry:
  %l = call i32 @pthread_mutex_lock(ptr @mutex)
  br label %loop
loop:
  %spun = phi i1 [ false, %entry ], [ false, %take ], [ %timeout, %spin ], [ false, %sleep ]
  %sd = load i32, ptr @shutdown, align 4
  %stop = icmp ne i32 %sd, 0
  br i1 %stop, label %exit, label %look
look:
  %next = load i64, ptr @job_next, align 8
  %c = load i64, ptr @job_chunks, align 8
  %has = icmp slt i64 %next, %c
  br i1 %has, label %take, label %idle
take:
  %next1 = add i64 %next, 1
  store i64 %next1, ptr @job_next, align 8
  call void @run_chunk(i64 %next)
  br label %loop
idle:
  br i1 %spun, label %sleep, label %spin
spin:
  ; the next job of an inference usually follows within microseconds: watch for it a while
  ; (job_seq changes when one is published) before sleeping, which costs a wake-up
  %seq = load i64, ptr @job_seq, align 8
  %u = call i32 @pthread_mutex_unlock(ptr @mutex)
  %timeout = call i1 @spin_while_eq(ptr @job_seq, i64 %seq, i64 SPIN_WORKER)
  %l2 = call i32 @pthread_mutex_lock(ptr @mutex)
  br label %loop
sleep:
  %w = call i32 @pthread_cond_wait(ptr @work_cv, ptr @mutex)
  br label %loop
exit:
  %u1 = call i32 @pthread_mutex_unlock(ptr @mutex)
  ret ptr null
}

; a new worker, created with every signal blocked (it inherits the mask); 0 on success
define internal i32 @spawn(ptr %slot) {
entry:
  %all = alloca [256 x i8], align 16
  %old = alloca [256 x i8], align 16
  %f = call i32 @sigfillset(ptr %all)
  %m = call i32 @pthread_sigmask(i32 SIG_SETMASK, ptr %all, ptr %old)
  %rc = call i32 @pthread_create(ptr %slot, ptr null, ptr @worker, ptr null)
  %r = call i32 @pthread_sigmask(i32 SIG_SETMASK, ptr %old, ptr null)
  ret i32 %rc
}

define void @tosa_xdsl_parallel_for(ptr %fn, ptr %ctx, i64 %lb, i64 %ub, i64 %threads) {
entry:
  %n = sub i64 %ub, %lb
  %few = icmp sle i64 %n, 1
  %one = icmp sle i64 %threads, 1
  %serial = or i1 %few, %one
  br i1 %serial, label %direct, label %start
direct:
  call void %fn(i64 %lb, i64 %ub, ptr %ctx)
  ret void
start:
  call void @ensure_init()
  %l = call i32 @pthread_mutex_lock(ptr @mutex)
  %active = load i32, ptr @job_active, align 4
  %busy = icmp ne i32 %active, 0
  br i1 %busy, label %alone, label %claim
alone:
  %u0 = call i32 @pthread_mutex_unlock(ptr @mutex)
  call void %fn(i64 %lb, i64 %ub, ptr %ctx)
  ret void
claim:
  store i32 1, ptr @job_active, align 4
  %want0 = sub i64 %threads, 1
  %chunks = mul i64 %threads, CHUNKS_PER_THREAD
  %lt = icmp slt i64 %chunks, %n
  %c0 = select i1 %lt, i64 %chunks, i64 %n
  %big = icmp sgt i64 %c0, MAX_CHUNKS
  %c = select i1 %big, i64 MAX_CHUNKS, i64 %c0
  %cm1 = sub i64 %c, 1
  %fewer = icmp slt i64 %cm1, %want0
  %want = select i1 %fewer, i64 %cm1, i64 %want0
  br label %grow
grow:
  %nw = load i64, ptr @nworkers, align 8
  %short = icmp slt i64 %nw, %want
  %room = icmp slt i64 %nw, MAX_WORKERS
  %need = and i1 %short, %room
  br i1 %need, label %create, label %publish
create:
  %slot = getelementptr [MAX_WORKERS x i64], ptr @workers, i64 0, i64 %nw
  %rc = call i32 @spawn(ptr %slot)
  %ok = icmp eq i32 %rc, 0
  br i1 %ok, label %created, label %publish
created:
  %nw1 = add i64 %nw, 1
  store i64 %nw1, ptr @nworkers, align 8
  br label %grow
publish:
  store ptr %fn, ptr @job_fn, align 8
  store ptr %ctx, ptr @job_ctx, align 8
  store i64 %lb, ptr @job_lb, align 8
  store i64 %n, ptr @job_n, align 8
  store i64 0, ptr @job_next, align 8
  store atomic i64 0, ptr @job_done monotonic, align 8
  store i64 %c, ptr @job_chunks, align 8
  %seq = load i64, ptr @job_seq, align 8
  %seq1 = add i64 %seq, 1
  store atomic i64 %seq1, ptr @job_seq monotonic, align 8
  %b = call i32 @pthread_cond_broadcast(ptr @work_cv)
  br label %take
take:
  %next = load i64, ptr @job_next, align 8
  %has = icmp slt i64 %next, %c
  br i1 %has, label %run, label %wait
run:
  %next1 = add i64 %next, 1
  store i64 %next1, ptr @job_next, align 8
  call void @run_chunk(i64 %next)
  br label %take
wait:
  %waited = phi i1 [ false, %take ], [ true, %spin ], [ true, %sleep ]
  %d = load i64, ptr @job_done, align 8
  %left = icmp slt i64 %d, %c
  br i1 %left, label %unfinished, label %finish
unfinished:
  br i1 %waited, label %sleep, label %spin
spin:
  ; a worker runs the last chunk(s): their end is usually near, a sleep costs a wake-up
  %u1 = call i32 @pthread_mutex_unlock(ptr @mutex)
  %t = call i1 @spin_while_eq(ptr @job_done, i64 %d, i64 SPIN_CALLER)
  %l1 = call i32 @pthread_mutex_lock(ptr @mutex)
  br label %wait
sleep:
  %w = call i32 @pthread_cond_wait(ptr @done_cv, ptr @mutex)
  br label %wait
finish:
  store i64 0, ptr @job_chunks, align 8
  store i64 0, ptr @job_next, align 8
  store i32 0, ptr @job_active, align 4
  %u = call i32 @pthread_mutex_unlock(ptr @mutex)
  ret void
}

; join every worker; -1 (nothing done) while a job runs or before any threaded call
define i32 @tosa_xdsl_thread_pool_shutdown() {
entry:
  %s = load atomic i32, ptr @state acquire, align 4
  %ready = icmp eq i32 %s, 2
  br i1 %ready, label %lock, label %never
never:
  ret i32 0
lock:
  %l = call i32 @pthread_mutex_lock(ptr @mutex)
  %active = load i32, ptr @job_active, align 4
  %busy = icmp ne i32 %active, 0
  br i1 %busy, label %refuse, label %stop
refuse:
  %u0 = call i32 @pthread_mutex_unlock(ptr @mutex)
  ret i32 -1
stop:
  store i32 1, ptr @shutdown, align 4
  %seq = load i64, ptr @job_seq, align 8
  %seq1 = add i64 %seq, 1
  store atomic i64 %seq1, ptr @job_seq monotonic, align 8
  %nw = load i64, ptr @nworkers, align 8
  %b = call i32 @pthread_cond_broadcast(ptr @work_cv)
  %u1 = call i32 @pthread_mutex_unlock(ptr @mutex)
  br label %join
join:
  %i = phi i64 [ 0, %stop ], [ %i1, %joined ]
  %more = icmp slt i64 %i, %nw
  br i1 %more, label %one, label %reset
one:
  %slot = getelementptr [MAX_WORKERS x i64], ptr @workers, i64 0, i64 %i
  %t = load i64, ptr %slot, align 8
  %j = call i32 @pthread_join(i64 %t, ptr null)
  br label %joined
joined:
  %i1 = add i64 %i, 1
  br label %join
reset:
  %l2 = call i32 @pthread_mutex_lock(ptr @mutex)
  store i64 0, ptr @nworkers, align 8
  store i32 0, ptr @shutdown, align 4
  %u2 = call i32 @pthread_mutex_unlock(ptr @mutex)
  ret i32 0
}

define i64 @tosa_xdsl_thread_pool_size() {
entry:
  %s = load atomic i32, ptr @state acquire, align 4
  %ready = icmp eq i32 %s, 2
  br i1 %ready, label %lock, label %never
never:
  ret i64 0
lock:
  %l = call i32 @pthread_mutex_lock(ptr @mutex)
  %nw = load i64, ptr @nworkers, align 8
  %u = call i32 @pthread_mutex_unlock(ptr @mutex)
  ret i64 %nw
}
"""


def _pause() -> tuple[str, str]:
    """(declaration, call) of the CPU's spin-wait hint for this host, or nothing."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64", "i386", "i686"):
        return "declare void @llvm.x86.sse2.pause()", "call void @llvm.x86.sse2.pause()"
    if machine in ("aarch64", "arm64"):
        return "declare void @llvm.aarch64.hint(i32)", "call void @llvm.aarch64.hint(i32 1)"
    return "", ""


def runtime_ir(spin_worker: int = SPIN_WORKER, spin_caller: int = SPIN_CALLER, pause: bool = True,
               suffix: str = "") -> str:
    """The pool as LLVM IR text for this host (its SIG_SETMASK value, its pause hint).
    `spin_worker`/`spin_caller`: the bounds of the two spins (rounds); `pause`: each round
    executes the CPU's pause hint (~26 ns here; without it a round is ~0.3 ns); `suffix`: appended to
    the exported names (bench/threads.py loads variants side by side)."""
    if not hasattr(signal, "SIG_SETMASK") or os.name != "posix":
        raise RuntimeError("--threads needs POSIX threads (Linux, macOS)")
    decl, call = _pause() if pause else ("", "")
    text = (_IR.replace("MAX_WORKERS", str(MAX_WORKERS)).replace("MAX_CHUNKS", str(MAX_CHUNKS))
            .replace("CHUNKS_PER_THREAD", str(CHUNKS_PER_THREAD))
            .replace("SIG_SETMASK", str(int(signal.SIG_SETMASK)))
            .replace("SPIN_WORKER", str(int(spin_worker))).replace("SPIN_CALLER", str(int(spin_caller)))
            .replace("PAUSE_DECL", decl).replace("PAUSE_CALL", call))
    for name in (SYMBOL, SHUTDOWN, SIZE):
        text = text.replace(f"@{name}(", f"@{name}{suffix}(")
    return text


def object_code(opt_level: int = 2, **variant: Any) -> bytes:
    """The pool as an object file (linked into threaded shared libraries); `variant`:
    runtime_ir's keywords."""
    from tosa_xdsl.codegen.llvm import _binding, target_machine

    lb = _binding()
    tm = target_machine(opt_level)
    mod = lb.parse_assembly(runtime_ir(**variant))
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    mod.verify()
    return bytes(tm.emit_object(mod))


_LOCK = threading.Lock()
_LOADED: dict[str, Any] = {}


def ensure_loaded() -> None:
    """Compile the pool into this process once and make `tosa_xdsl_parallel_for` a symbol
    the JIT's linker resolves (llvmlite's add_symbol); the workers are joined at exit."""
    with _LOCK:
        if _LOADED:
            return
        import atexit

        from tosa_xdsl.codegen.llvm import _binding, load_object

        loaded = load_object(object_code(), pool=False)
        lb = _binding()
        for name in (SYMBOL, SHUTDOWN, SIZE):
            address = loaded.address(name)
            if not address:
                raise RuntimeError(f"the thread pool has no symbol {name}")
            lb.add_symbol(name, address)
            _LOADED[name] = address
        _LOADED["engine"] = loaded  # the code lives as long as the process
        atexit.register(shutdown)


def _call(name: str, restype: Any) -> Any:
    import ctypes

    ensure_loaded()
    return ctypes.CFUNCTYPE(restype)(_LOADED[name])()


def shutdown() -> bool:
    """Join every worker (False while a threaded call is running: then nothing is done)."""
    import ctypes

    if not _LOADED:
        return True
    return _call(SHUTDOWN, ctypes.c_int32) == 0


def worker_count() -> int:
    """Workers alive in the pool (0 before the first threaded call and after shutdown)."""
    import ctypes

    if not _LOADED:
        return 0
    return int(_call(SIZE, ctypes.c_int64))
