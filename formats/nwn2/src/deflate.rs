//! One zlib stream compressed in independent chunks, several at a time (as pigz does).
//!
//! The body is cut into `chunk`-byte pieces. Each is raw-deflated on its own, primed with the
//! 32 KiB before it (so matches reach back as far as in a one-piece stream and the size stays
//! within a fraction of a percent of it), and ends with a sync flush, which byte-aligns the bit
//! stream with an empty stored block; the last one ends with the final block instead. Joined,
//! they are one valid deflate stream, wrapped in the zlib header and the Adler-32 of the whole
//! body (combined from each chunk's). Any inflater reads it; the stream's bytes differ from a
//! one-piece compression, the body it inflates to does not.
//!
//! [`ChunkedZlib`] is told the body's length first and then takes the body in pieces placed
//! at their offsets, in any order (the bake hands over the island part, computed early, before
//! the tile tables ahead of it). Each chunk is queued for rayon's pool as soon as every byte of
//! it and of its window is there, so compression overlaps the bake; while the body is being
//! placed, one thread of the budget is left to the bake (see `Waiting`). It never holds the
//! whole body: only the chunks still being filled or waiting (with their windows), so a
//! re-bake does not touch (and have the kernel zero) a second and third copy of a 5 MB body.

use flate2::{Compress, Compression, FlushCompress, Status};

/// Chunk size used by the writer: large enough that the per-chunk cost (a sync marker and a
/// primed dictionary) is negligible, small enough that a 5 MB body splits over many cores.
pub const CHUNK: usize = 256 * 1024;
/// The deflate window: how far back a chunk's matches may reach into the previous one.
const WINDOW: usize = 32 * 1024;
/// Adler-32's modulus.
const BASE: u32 = 65_521;

/// A compressed chunk: raw deflate bytes, the chunk's Adler-32 and its length.
type Compressed = (Vec<u8>, u32, usize);
/// A chunk compressed by the pool, with its index in the body.
type Numbered = (usize, Compressed);

/// A chunk being filled: its window and its own bytes, and how many of them are there.
#[derive(Debug)]
struct OpenChunk {
    bytes: Vec<u8>,
    filled: usize,
}

/// A complete chunk waiting to be compressed: its index, its window and own bytes, and where
/// its own bytes start.
#[derive(Debug)]
struct ReadyChunk {
    index: usize,
    bytes: Vec<u8>,
    own: usize,
}

/// A zlib stream built chunk by chunk from pieces placed at their offsets.
///
/// Each chunk is queued for rayon's pool as soon as it is complete. Why the pool and not the
/// caller's thread: the bake produces the body faster than one core deflates it at level 6,
/// so chunks queue up; pool workers (all threads of the budget but one until `finish`, then
/// all) take them in turn. With a thread budget of one (a batch worker), chunks are
/// compressed in order by `place` itself.
#[derive(Debug)]
pub struct ChunkedZlib {
    level: u32,
    chunk: usize,
    /// The body's length, given up front.
    length: usize,
    /// How many chunks the body has (at least one: an empty body is one empty final chunk).
    chunk_count: usize,
    /// Chunks with some but not all of their bytes, by index.
    open: std::collections::BTreeMap<usize, OpenChunk>,
    /// Where the pool's jobs send each compressed chunk (with its index).
    results: (
        std::sync::mpsc::Sender<Numbered>,
        std::sync::mpsc::Receiver<Numbered>,
    ),
    /// Chunks compressed by `place` itself (no thread to spare).
    done: Vec<Option<Compressed>>,
    /// The byte ranges placed so far, sorted and merged; a piece overlapping them, or reaching
    /// past the end, spoils the stream (`finish` then returns `None`).
    placed: Vec<(usize, usize)>,
    spoiled: bool,
    /// Whether the pool compresses (else `place` does), from the thread budget when the
    /// stream was started.
    parallel: bool,
    /// Complete chunks waiting for a worker, and the workers compressing them.
    waiting: std::sync::Arc<std::sync::Mutex<Waiting>>,
    /// How many workers may compress at once while the body is still being placed: one per
    /// thread of the budget but one (see [`Waiting`]); every thread once `finish` is called.
    workers_while_placing: usize,
}

/// The chunks waiting to be compressed and how many pool workers are taking them.
///
/// Why not one pool job per chunk: the bake places the body while it computes the island
/// paths and then the tile tables on its own thread, the longest chain of work in a re-bake.
/// With a job per chunk every core compresses as soon as chunks queue up, three busy
/// threads share two cores, and that chain slows down by a third. With one worker fewer than
/// the thread budget until the body is complete, the chain keeps a core; the chunks still
/// waiting then are compressed on every core (dm_dungeon's re-bake, 121 interleaved runs:
/// median 48.5 → 47.2 ms, docs/performance.md). Only the order of the work changes.
#[derive(Debug, Default)]
struct Waiting {
    chunks: std::collections::VecDeque<ReadyChunk>,
    workers: usize,
    /// The most workers seen at once while the body was being placed (for the tests).
    most_while_placing: usize,
}

impl ChunkedZlib {
    /// A stream of a `length`-byte body at `level` 0–9 (larger is clamped), `chunk` bytes
    /// per chunk (at least 1).
    pub fn new(level: u32, chunk: usize, length: usize) -> Self {
        let chunk = chunk.max(1);
        let chunk_count = length.div_ceil(chunk).max(1);
        let mut encoder = ChunkedZlib {
            level: level.min(9),
            chunk,
            length,
            chunk_count,
            open: std::collections::BTreeMap::new(),
            results: std::sync::mpsc::channel(),
            done: vec![None; chunk_count],
            placed: Vec::new(),
            spoiled: false,
            parallel: walkmesh_core::threads::may_spawn(),
            waiting: Default::default(),
            workers_while_placing: walkmesh_core::threads::available().saturating_sub(1).max(1),
        };
        if length == 0 {
            encoder.complete(ReadyChunk {
                index: 0,
                bytes: Vec::new(),
                own: 0,
            });
        }
        encoder
    }

    /// The body bytes chunk `index` is compressed from (its window, then its own bytes), as
    /// a range of the body, and where its own bytes start in that range.
    fn span(&self, index: usize) -> (usize, usize, usize) {
        let own_start = index * self.chunk;
        let start = own_start - own_start.min(WINDOW);
        let end = (own_start + self.chunk).min(self.length);
        (start, end, own_start - start)
    }

    /// Copies `piece`, the body bytes from `offset` on, into every chunk it belongs to (as
    /// the chunk's own bytes or as the window of the next), and queues each chunk now
    /// complete.
    pub fn place(&mut self, offset: usize, piece: &[u8]) {
        let end = offset.saturating_add(piece.len());
        if piece.is_empty() {
            return;
        }
        if end > self.length || !self.mark_placed(offset, end) {
            self.spoiled = true;
            return;
        }
        let first = offset / self.chunk;
        let last = ((end - 1).saturating_add(WINDOW) / self.chunk).min(self.chunk_count - 1);
        for index in first..=last {
            let (start, stop, own) = self.span(index);
            let (from, to) = (offset.max(start), end.min(stop));
            if from >= to {
                continue;
            }
            let size = stop - start;
            let open = self.open.entry(index).or_insert_with(|| OpenChunk {
                bytes: vec![0; size],
                filled: 0,
            });
            if let (Some(into), Some(from_piece)) = (
                open.bytes.get_mut(from - start..to - start),
                piece.get(from - offset..to - offset),
            ) {
                into.copy_from_slice(from_piece);
                open.filled += to - from;
            }
            if open.filled == size
                && let Some(done) = self.open.remove(&index)
            {
                self.complete(ReadyChunk {
                    index,
                    bytes: done.bytes,
                    own,
                });
            }
        }
    }

    /// Records `start..end` as placed; false if it overlaps what is already there.
    fn mark_placed(&mut self, start: usize, end: usize) -> bool {
        let at = self.placed.partition_point(|&(_, e)| e <= start);
        if self.placed.get(at).is_some_and(|&(s, _)| s < end) {
            return false;
        }
        self.placed.insert(at, (start, end));
        // Merge with the neighbours it touches, so the list stays short.
        if self.placed.get(at + 1).map(|r| r.0) == Some(end) {
            let next_end = self.placed.get(at + 1).map_or(end, |r| r.1);
            self.placed.remove(at + 1);
            if let Some(r) = self.placed.get_mut(at) {
                r.1 = next_end;
            }
        }
        if at > 0 && self.placed.get(at - 1).map(|r| r.1) == Some(start) {
            let merged_end = self.placed.get(at).map_or(end, |r| r.1);
            self.placed.remove(at);
            if let Some(r) = self.placed.get_mut(at - 1) {
                r.1 = merged_end;
            }
        }
        true
    }

    /// A chunk is complete: compressed in the pool, or here without a thread to spare.
    fn complete(&mut self, chunk: ReadyChunk) {
        let (level, chunk_count) = (self.level, self.chunk_count);
        if !self.parallel {
            if let Some(slot) = self.done.get_mut(chunk.index) {
                *slot = Some(compress(&chunk, level, chunk_count));
            }
            return;
        }
        let Ok(mut waiting) = self.waiting.lock() else {
            // Only after a worker panicked (rayon aborts first): `finish` finds the chunk
            // missing and the writer compresses the body in one piece.
            return;
        };
        waiting.chunks.push_back(chunk);
        if waiting.workers < self.workers_while_placing {
            waiting.workers += 1;
            waiting.most_while_placing = waiting.most_while_placing.max(waiting.workers);
            self.start_worker();
        }
    }

    /// A pool job that compresses waiting chunks until none is left.
    fn start_worker(&self) {
        let (level, chunk_count) = (self.level, self.chunk_count);
        let sender = self.results.0.clone();
        let waiting = std::sync::Arc::clone(&self.waiting);
        rayon::spawn(move || {
            loop {
                // The worker count drops under the same lock that found the queue empty, so
                // `complete` never counts on a worker that is leaving.
                let chunk = {
                    let Ok(mut waiting) = waiting.lock() else {
                        return;
                    };
                    match waiting.chunks.pop_front() {
                        Some(chunk) => chunk,
                        None => {
                            waiting.workers -= 1;
                            return;
                        }
                    }
                };
                // The receiver lives until `finish` has every chunk.
                let _ = sender.send((chunk.index, compress(&chunk, level, chunk_count)));
            }
        });
    }

    /// The body is complete: workers for every thread of the budget take the chunks still
    /// waiting.
    fn start_every_worker(&self) {
        let threads = self.workers_while_placing + 1;
        let Ok(mut waiting) = self.waiting.lock() else {
            return;
        };
        let wanted = threads.min(waiting.workers + waiting.chunks.len());
        while waiting.workers < wanted {
            waiting.workers += 1;
            self.start_worker();
        }
    }

    /// Waits for the pool's chunks and returns the whole zlib stream; `None` if a byte of the
    /// body was never placed, a piece overlapped another or reached past the end, or a chunk
    /// went missing (a job panicked, which rayon turns into an abort, so only in theory).
    pub fn finish(mut self) -> Option<Vec<u8>> {
        let complete = self.length == 0 || self.placed.as_slice() == [(0, self.length)];
        if self.spoiled || !complete {
            return None;
        }
        if self.parallel {
            self.start_every_worker();
            let (sender, receiver) = self.results;
            drop(sender);
            let mut missing = self.done.iter().filter(|d| d.is_none()).count();
            // Every job holds a sender until it has sent its chunk.
            while missing > 0 {
                let (index, compressed) = receiver.recv().ok()?;
                if let Some(slot) = self.done.get_mut(index)
                    && slot.is_none()
                {
                    *slot = Some(compressed);
                    missing -= 1;
                }
            }
        }
        if self.done.iter().any(Option::is_none) {
            return None;
        }
        let size = self
            .done
            .iter()
            .flatten()
            .map(|(c, _, _)| c.len())
            .sum::<usize>()
            + 6;
        let mut stream = Vec::with_capacity(size);
        stream.extend_from_slice(&zlib_header(self.level));
        let mut adler = 1u32;
        for (compressed, chunk_adler, length) in self.done.iter().flatten() {
            stream.extend_from_slice(compressed);
            adler = adler32_combine(adler, *chunk_adler, *length);
        }
        stream.extend_from_slice(&adler.to_be_bytes());
        Some(stream)
    }
}

/// The raw deflate of a complete chunk, ending with the final block if it is the last.
fn compress(chunk: &ReadyChunk, level: u32, chunk_count: usize) -> Compressed {
    let last = chunk.index + 1 == chunk_count;
    deflate_chunk(&chunk.bytes, chunk.own, chunk.bytes.len(), level, last)
}

/// The zlib stream of `body` at `level`, compressed in [`CHUNK`]s on every core.
pub fn zlib(body: &[u8], level: u32) -> Vec<u8> {
    let mut encoder = ChunkedZlib::new(level, CHUNK, body.len());
    encoder.place(0, body);
    encoder.finish().unwrap_or_else(|| one_piece(body, level))
}

/// The zlib stream of `body` compressed on this thread in one piece.
fn one_piece(body: &[u8], level: u32) -> Vec<u8> {
    let mut compress = Compress::new(Compression::new(level.min(9)), true);
    let mut out = Vec::with_capacity(body.len() / 2 + 1024);
    while let Ok(status) = compress.compress_vec(
        body.get((compress.total_in() as usize).min(body.len())..)
            .unwrap_or(&[]),
        &mut out,
        FlushCompress::Finish,
    ) {
        if status == Status::StreamEnd {
            break;
        }
        out.reserve(out.capacity().max(1024));
    }
    out
}

/// The two zlib header bytes: deflate with a 32 KiB window, the level class zlib writes, and
/// the check bits that make the pair a multiple of 31.
fn zlib_header(level: u32) -> [u8; 2] {
    let class: u8 = match level {
        0 | 1 => 0,
        2..=5 => 1,
        6 => 2,
        _ => 3,
    };
    let cmf = 0x78u8;
    let flg = class << 6;
    let check = (31 - ((u16::from(cmf) << 8 | u16::from(flg)) % 31)) % 31;
    [cmf, flg | check as u8]
}

/// Raw deflate of `body[start..end]` primed with the window before `start`, ending with a
/// sync flush, or with the final block when `last`; with the chunk's Adler-32 and length.
fn deflate_chunk(
    body: &[u8],
    start: usize,
    end: usize,
    level: u32,
    last: bool,
) -> (Vec<u8>, u32, usize) {
    let input = body.get(start..end).unwrap_or(&[]);
    let mut compress = Compress::new(Compression::new(level), false);
    if start > 0 {
        let window = body.get(start.saturating_sub(WINDOW)..start).unwrap_or(&[]);
        // Only fails on a stream already started; this one is fresh.
        let _ = compress.set_dictionary(window);
    }
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    let mut out = Vec::with_capacity(input.len() / 2 + 1024);
    loop {
        let consumed = (compress.total_in() as usize).min(input.len());
        let status = compress.compress_vec(input.get(consumed..).unwrap_or(&[]), &mut out, flush);
        let all_in = compress.total_in() as usize == input.len();
        match status {
            Ok(Status::StreamEnd) => break,
            // A flush is complete once a call leaves output space unused.
            Ok(_) if !last && all_in && out.len() < out.capacity() => break,
            Ok(_) => out.reserve(out.capacity().max(1024)),
            // Compressing into memory does not fail; stop rather than loop.
            Err(_) => break,
        }
    }
    (out, adler32(input), input.len())
}

/// Adler-32 of `data` (RFC 1950), 32 bytes at a time: over a run x₀…x₃₁ the sum `a` grows by
/// Σxᵢ and `b` by 32·a + Σ(32−i)·xᵢ, the same as adding byte by byte, but without the
/// one-byte dependency chain (the compiler vectorises the sums; a byte-wise loop was about 1 %
/// of a re-bake's CPU). Blocks stay under zlib's NMAX (5552) so the sums cannot overflow.
fn adler32(data: &[u8]) -> u32 {
    const RUN: usize = 32;
    const BLOCK: usize = 5552 / RUN * RUN;
    let (mut a, mut b) = (1u32, 0u32);
    for block in data.chunks(BLOCK) {
        let mut runs = block.chunks_exact(RUN);
        for run in &mut runs {
            let (mut sum, mut weighted) = (0u32, 0u32);
            for (i, &byte) in run.iter().enumerate() {
                sum += u32::from(byte);
                weighted += (RUN - i) as u32 * u32::from(byte);
            }
            b += RUN as u32 * a + weighted;
            a += sum;
        }
        for &byte in runs.remainder() {
            a += u32::from(byte);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    b << 16 | a
}

/// The Adler-32 of `first ++ second` from the checksums of both and the second's length.
fn adler32_combine(first: u32, second: u32, second_length: usize) -> u32 {
    let length = (second_length % BASE as usize) as u64;
    let base = u64::from(BASE);
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    // a = a1 + a2 - 1; b = b1 + b2 + length * (a1 - 1), all modulo BASE.
    let a = (a1 + a2 + base - 1) % base;
    let b = (b1 + b2 + length * a1 + base - length) % base;
    (b << 16 | a) as u32
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream with a matching Adler-32");
        out
    }

    /// Text-like bytes with repeats (so matches cross chunk borders) and noise.
    fn sample(length: usize, seed: u32) -> Vec<u8> {
        let mut state = seed.wrapping_mul(2_654_435_761).max(1);
        (0..length)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if i % 7 < 4 {
                    b"walkmesh"[i % 8]
                } else {
                    state as u8
                }
            })
            .collect()
    }

    #[test]
    fn adler32_matches_hand_computed_and_combines() {
        // RFC 1950's example string, checksum from the definition.
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(b""), 1);
        // Against the byte-by-byte definition, on lengths around the run and block sizes and
        // on all-0xFF bytes (the largest sums).
        let bytewise = |data: &[u8]| {
            let (mut a, mut b) = (1u64, 0u64);
            for &byte in data {
                a = (a + u64::from(byte)) % u64::from(BASE);
                b = (b + a) % u64::from(BASE);
            }
            (b << 16 | a) as u32
        };
        for length in [1usize, 31, 32, 33, 5535, 5536, 5537, 5552, 5553, 20_000] {
            let noisy = sample(length, length as u32);
            assert_eq!(adler32(&noisy), bytewise(&noisy), "length {length}");
            let full = vec![0xFFu8; length];
            assert_eq!(adler32(&full), bytewise(&full), "length {length}, all 0xFF");
        }
        let data = sample(200_000, 3);
        for cut in [0, 1, 5551, 5552, 65_521, 65_522, 199_999, 200_000] {
            let (x, y) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(x), adler32(y), y.len()),
                adler32(&data)
            );
        }
    }

    #[test]
    fn header_is_a_valid_zlib_header() {
        for level in 0..=9 {
            let [cmf, flg] = zlib_header(level);
            assert_eq!((u16::from(cmf) << 8 | u16::from(flg)) % 31, 0);
            assert_eq!(cmf, 0x78);
        }
    }

    /// The stream by its definition, chunk after chunk on one thread: each chunk primed with
    /// the (at most) 32 KiB before it, sync-flushed, the last one finished; one zlib header and
    /// the Adler-32 of the whole body around them.
    fn reference(body: &[u8], chunk: usize, level: u32) -> Vec<u8> {
        let count = body.len().div_ceil(chunk).max(1);
        let mut stream = zlib_header(level).to_vec();
        for k in 0..count {
            let (start, end) = (k * chunk, ((k + 1) * chunk).min(body.len()));
            let (raw, _, _) = deflate_chunk(body, start, end, level, k + 1 == count);
            stream.extend_from_slice(&raw);
        }
        stream.extend_from_slice(&adler32(body).to_be_bytes());
        stream
    }

    /// `body` cut into pieces of `size` bytes and placed in the order `order` gives.
    fn placed(body: &[u8], chunk: usize, level: u32, size: usize, order: &[usize]) -> Vec<u8> {
        let pieces: Vec<(usize, &[u8])> = body
            .chunks(size)
            .enumerate()
            .map(|(i, p)| (i * size, p))
            .collect();
        let mut encoder = ChunkedZlib::new(level, chunk, body.len());
        for &i in order {
            let (at, piece) = pieces[i % pieces.len()];
            encoder.place(at, piece);
        }
        encoder.finish().unwrap()
    }

    #[test]
    fn chunked_streams_inflate_to_the_body() {
        for length in [0usize, 1, 2, 100, 4095, 4096, 4097, 70_000, 300_001] {
            let body = sample(length, length as u32 + 1);
            for chunk in [1usize, 7, 4096, 32 * 1024, 100_000, CHUNK, 1 << 30] {
                if chunk < 64 && length > 5000 {
                    continue; // too slow to be worth it; small bodies cover tiny chunks
                }
                for level in [0u32, 1, 6, 9] {
                    // Fed in uneven pieces, as the bake hands them over.
                    let count = length.div_ceil(3001);
                    let stream = placed(&body, chunk, level, 3001, &(0..count).collect::<Vec<_>>());
                    assert_eq!(
                        inflate(&stream),
                        body,
                        "length {length}, chunk {chunk}, level {level}"
                    );
                    assert_eq!(stream, reference(&body, chunk, level));
                }
            }
        }
        assert_eq!(inflate(&zlib(b"", 6)), b"");
        let body = sample(3 * CHUNK + 5, 9);
        assert_eq!(inflate(&zlib(&body, 6)), body);
    }

    #[test]
    fn pieces_placed_in_any_order_give_the_same_stream() {
        // The bake hands the island part (the end of the body) over before the tile part
        // ahead of it; the stream must not depend on the order.
        let body = sample(5 * CHUNK + 12_345, 4);
        let expected = reference(&body, CHUNK, 6);
        for size in [1000usize, 40_000, CHUNK - 1, CHUNK + 7] {
            let count = body.len().div_ceil(size);
            let forward: Vec<usize> = (0..count).collect();
            let backward: Vec<usize> = (0..count).rev().collect();
            // A shuffle: sorted by a scrambled key, still every piece once.
            let mut shuffled: Vec<usize> = (0..count).collect();
            shuffled.sort_by_key(|&i| (i * 7919 + 13) % 101);
            for order in [&forward, &backward, &shuffled] {
                assert_eq!(
                    placed(&body, CHUNK, 6, size, order),
                    expected,
                    "pieces of {size}"
                );
            }
        }
    }

    #[test]
    fn a_gap_an_overlap_or_a_piece_past_the_end_gives_no_stream() {
        let body = sample(3 * CHUNK, 2);
        // Gap: the middle piece never comes.
        let mut gap = ChunkedZlib::new(6, CHUNK, body.len());
        gap.place(0, &body[..CHUNK]);
        gap.place(2 * CHUNK, &body[2 * CHUNK..]);
        assert!(gap.finish().is_none());
        // Overlap: a byte placed twice.
        let mut overlap = ChunkedZlib::new(6, CHUNK, body.len());
        overlap.place(0, &body[..CHUNK + 1]);
        overlap.place(CHUNK, &body[CHUNK..]);
        assert!(overlap.finish().is_none());
        // Past the end.
        let mut long = ChunkedZlib::new(6, CHUNK, body.len());
        long.place(0, &body);
        long.place(body.len(), b"x");
        assert!(long.finish().is_none());
        // The same pieces, right: a stream.
        let mut right = ChunkedZlib::new(6, CHUNK, body.len());
        right.place(CHUNK, &body[CHUNK..]);
        right.place(0, &body[..CHUNK]);
        assert_eq!(inflate(&right.finish().unwrap()), body);
    }

    #[test]
    fn while_the_body_is_placed_one_thread_of_the_budget_is_left_to_the_caller() {
        let piece = 64 * 1024;
        let body = sample(piece * 16, 11);
        walkmesh_core::threads::with_budget(3, || {
            let mut encoder = ChunkedZlib::new(6, piece, body.len());
            for (k, bytes) in body.chunks(piece).enumerate() {
                encoder.place(k * piece, bytes);
            }
            // Sixteen chunks queued faster than they compress: two workers of three threads.
            let most = encoder.waiting.lock().unwrap().most_while_placing;
            assert!(
                (1..=2).contains(&most),
                "{most} workers compressed at once while the body was placed"
            );
            let stream = encoder.finish().expect("every chunk compressed");
            assert_eq!(inflate(&stream), body);
        });
    }

    #[test]
    fn one_thread_gives_the_same_stream_as_the_pool() {
        let body = sample(4 * CHUNK + 99, 8);
        let pooled = zlib(&body, 6);
        let alone = walkmesh_core::threads::with_budget(1, || zlib(&body, 6));
        assert_eq!(pooled, alone);
        assert_eq!(pooled, reference(&body, CHUNK, 6));
    }

    #[test]
    fn priming_keeps_the_size_close_to_one_piece() {
        use std::io::Write;
        let body = sample(2_000_000, 5);
        let mut one = flate2::write::ZlibEncoder::new(Vec::new(), Compression::new(6));
        one.write_all(&body).unwrap();
        let one = one.finish().unwrap();
        let chunked = zlib(&body, 6);
        assert!(
            chunked.len() as f64 <= one.len() as f64 * 1.01,
            "{} vs {}",
            chunked.len(),
            one.len()
        );
    }
}
