//! Where on a walkable area a body stands, remembered from one step to
//! the next: most steps it has not left the polygon it was in, and that
//! polygon's sides, kept with the body, say so without a search of the
//! area's tree of polygons.

use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec2;

use super::WalkableArea;

impl WalkableArea {
    /// [`is_free`](Self::is_free), looking first where `hint` says `p` was
    /// last found, and noting where it is now: a body that has not left its
    /// polygon since its last step is known to be on the ground from that
    /// polygon's sides, kept in the hint, without searching the area. Any
    /// hint gives the same answer (one noted on another area only costs the
    /// search).
    pub fn is_free_from(&self, p: Vec2, hint: &mut GroundHint) -> bool {
        if !p.is_finite() {
            return false;
        }
        if hint.area == self.id && hint.holds(p) {
            return true;
        }
        let Some(index) = self.piece_at(p) else {
            return false;
        };
        *hint = self.hint_at(index, p).unwrap_or_default();
        true
    }

    /// The hint for `p` in piece `index`: the polygon the search finds it
    /// in, if it has few enough corners to keep.
    fn hint_at(&self, index: usize, p: Vec2) -> Option<GroundHint> {
        let piece = &self.pieces[index];
        // Found by the search `is_free` makes, from where it starts (not if
        // only points near `p` are on the ground).
        let found = piece
            .mesh
            .get_closest_point(p)
            .filter(|found| found.position() == p)?;
        let layer = piece.mesh.layers.get(usize::from(found.layer()?))?;
        // The polygon's number in its layer, under the layer's in the top
        // byte.
        let polygon = layer
            .polygons
            .get((found.polygon() & 0x00ff_ffff) as usize)?;
        if polygon.vertices.len() > HINT_CORNERS {
            return None;
        }
        let mut hint = GroundHint {
            area: self.id,
            piece: (piece.min, piece.max),
            offset: layer.offset,
            corners: [Vec2::ZERO; HINT_CORNERS],
            len: polygon.vertices.len() as u8,
            ..GroundHint::default()
        };
        let (mut lo, mut hi) = (Vec2::MAX, Vec2::MIN);
        for (kept, &v) in hint.corners.iter_mut().zip(&polygon.vertices) {
            *kept = layer.vertices.get(v as usize)?.coords;
            (lo, hi) = (lo.min(*kept), hi.max(*kept));
        }
        hint.bounds = (lo, hi);
        Some(hint)
    }
}

/// The most corners a polygon kept in a [`GroundHint`] has (of the
/// polygons of random levels of rocks, walls and boxes, most have three or
/// four, none more than seven).
const HINT_CORNERS: usize = 8;

/// Numbers areas as they are made.
static NEXT_AREA: AtomicU64 = AtomicU64::new(1);

/// A number for an area being made, unlike any other's in this process.
pub(super) fn new_area_id() -> u64 {
    NEXT_AREA.fetch_add(1, Ordering::Relaxed)
}

/// Where on a [`WalkableArea`] a body's centre was last found, for
/// [`WalkableArea::is_free_from`] to look there first: the polygon's
/// corners, kept with the body rather than looked up in the area, which
/// took a cache miss for each. Starts knowing nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GroundHint {
    /// The area's number (0: none).
    pub(super) area: u64,
    /// The box round its piece: the search looks only there.
    piece: (Vec2, Vec2),
    /// Its layer's offset.
    offset: Vec2,
    /// The box round the polygon (in its layer): the search looks only at
    /// polygons whose box holds the point.
    bounds: (Vec2, Vec2),
    corners: [Vec2; HINT_CORNERS],
    len: u8,
}

impl GroundHint {
    /// Whether `p` is in the polygon, by the test the search makes, so
    /// that it is on the ground whenever this says so: in the boxes, and
    /// left of, or on, each of the polygon's sides in turn.
    pub(super) fn holds(&self, p: Vec2) -> bool {
        let within = |p: Vec2, (lo, hi): (Vec2, Vec2)| p.cmpge(lo).all() && p.cmple(hi).all();
        if !(self.len > 0 && within(p, self.piece)) {
            return false;
        }
        let p = p - self.offset;
        if !within(p, self.bounds) {
            return false;
        }
        let corners = &self.corners[..usize::from(self.len)];
        let mut a = corners[0];
        for &b in corners[1..].iter().chain(&corners[..1]) {
            // polyanya's sides: within 1e-4 of the line is on it, and on
            // it within the side's box (1e-6 wider) is inside.
            let side = (b - a).perp_dot(p - a);
            if side.abs() < 1e-4 {
                if within(p, (a.min(b) - 1e-6, a.max(b) + 1e-6)) {
                    return true;
                }
            } else if side <= 0.0 || side.is_nan() {
                // Right of it (or not a number, which the search takes
                // for right).
                return false;
            }
            a = b;
        }
        true
    }
}
