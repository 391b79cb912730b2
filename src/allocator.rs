//! The binary's global allocator: mimalloc, asked through its plain entry points whenever the
//! alignment allows. Rule scripts allocate hundreds of thousands of small values a second, and
//! `mimalloc::MiMalloc` sends every request through `mi_malloc_aligned`, whose generic path costs
//! about 30 more instructions an allocation than `mi_malloc`'s (measured with callgrind on
//! `simulate check`: 5% of the whole run).

use libmimalloc_sys::{mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned};
use libmimalloc_sys::{mi_zalloc, mi_zalloc_aligned};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc aligns every block of 16 bytes or more to 16 bytes, and smaller ones to 8
/// (`MI_MAX_ALIGN_SIZE`); a layout's alignment never exceeds its size.
const PLAIN_ALIGN: usize = 16;

/// A layout the plain entry points serve, as `std`'s own `System` decides for `malloc`.
#[inline]
fn plain(align: usize, size: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

/// mimalloc as the global allocator (`#[global_allocator]` in the binary).
pub struct Allocator;

// SAFETY: every block comes from mimalloc and goes back to it; a block of an alignment the
// plain entry points do not guarantee is made and resized by the aligned ones.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size and alignment.
        unsafe {
            if plain(layout.align(), layout.size()) {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if plain(layout.align(), layout.size()) {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`; the new block keeps its
        // alignment by the same rule as `alloc`.
        unsafe {
            if plain(layout.align(), new_size) {
                mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_their_alignment_through_growth() {
        let a = Allocator;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [align, 8, 16, 24, 100, 5000] {
                let Ok(layout) = Layout::from_size_align(size.max(align), align) else {
                    continue;
                };
                // SAFETY: a non-zero layout; the block is freed with the same allocator.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{layout:?}"
                    );
                    p.write_bytes(7, layout.size());
                    let bigger = layout.size() * 3;
                    let q = a.realloc(p, layout, bigger);
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "grown {layout:?}"
                    );
                    assert_eq!(*q, 7);
                    let z = a.alloc_zeroed(layout);
                    assert!((z as usize).is_multiple_of(align) && *z == 0);
                    a.dealloc(q, Layout::from_size_align(bigger, align).unwrap());
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
