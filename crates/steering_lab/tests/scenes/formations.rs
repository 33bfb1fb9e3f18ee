//! Formations through the real plugin, at 60 and 144 Hz: a wedge of 12
//! through a door half its width, a wedge wheeling round a half turn and
//! turning about, and members that fall and join. The scenes are the lab's
//! (`steering_lab::groups`, `steering-lab groups`).

use steering_lab::groups::{self, Squad};

const RATES: [f64; 2] = [60.0, 144.0];

/// The deepest two bodies may overlap: 1 cm of a body 16 px (half a
/// metre) across.
const OVERLAP: f32 = 0.32;

/// A wall 20 px thick with a door 228 px wide (half the wedge's 456: 11
/// spacings and a body) off the straight line, so the route bends; a wedge
/// of 12, 40 px apart, led by an agent navigating through it, all bodies of
/// 8 px avoiding each other. All 12 get through, falling into a column; no
/// two bodies overlap by more than 1 cm, none touches the wall; from 3 s
/// after the last is through, for 3 s, every place of the wedge has a
/// member within 5% of the spacing (2 px), the leader cruising on. (Without
/// the column, members stay behind the wall; without the leader slowing for
/// its members, 30 px off 3 s after.)
#[test]
fn a_wedge_of_twelve_goes_through_a_door_half_its_width_and_forms_again() {
    let squad = Squad::default();
    for hz in RATES {
        let r = groups::door(hz, &squad);
        eprintln!("at {hz} Hz: {r:?}");
        let through = r
            .through_s
            .unwrap_or_else(|| panic!("at {hz} Hz: not all 12 got through"));
        assert!(
            through < 24.0,
            "at {hz} Hz: the last was through at {through} s"
        );
        assert!(
            r.went_column,
            "at {hz} Hz: the wedge never fell into a column"
        );
        assert!(
            r.deepest_overlap_px <= OVERLAP,
            "at {hz} Hz: bodies overlapped by {} px",
            r.deepest_overlap_px
        );
        assert!(
            r.nearest_wall_px >= 0.0,
            "at {hz} Hz: a body was {} px into a wall",
            r.nearest_wall_px
        );
        assert!(
            r.leader_x < 2400.0,
            "at {hz} Hz: the leader was at {}, braking for its goal",
            r.leader_x
        );
        assert!(
            r.off_after_px <= 0.05 * squad.spacing,
            "at {hz} Hz: 3 s after the door, a place was {} px from a member",
            r.off_after_px
        );
    }
}

/// A wedge of 12 (456 px wide) whose leader walks east, round a half
/// circle of 500 px radius, and back west, at 60% of top speed: its outer
/// members walk up to 1.5 times as fast as the leader (it slows for them
/// to 90% of their top speed). During the turn no two members' paths cross,
/// and every place has a member within 15% of the spacing (3.9 px
/// measured: the places' turning is led, their acceleration is not). (On a
/// 300 px half circle, the inner arm's members pass over each other's
/// footsteps, 0.6 s apart: 12 crossings.)
#[test]
fn a_wedge_wheels_round_a_half_turn_without_crossing_paths() {
    let squad = Squad::default();
    for hz in RATES {
        let r = groups::wheel(hz, &squad);
        eprintln!("at {hz} Hz: {r:?}");
        assert!(
            r.steps as f64 > 5.0 * hz,
            "at {hz} Hz: the turn took {} steps",
            r.steps
        );
        assert_eq!(r.crossings, 0, "at {hz} Hz: members' paths crossed");
        assert!(
            r.off_px <= 0.15 * squad.spacing,
            "at {hz} Hz: a place was {} px from a member",
            r.off_px
        );
    }
}

/// A wedge of 12 whose leader walks east at 60% of top speed and, 4 s in,
/// is sent back west: it turns about, and its members pass it to their
/// places behind it, each keeping to its row (their ways crossing, two
/// would swap places). From the order on, for 8 s, no two members' paths
/// cross, and from 4 s after it every place has a member within 5% of the
/// spacing. (Trading places only when it saved half a spacing, not also
/// whenever two ways crossed: 5 crossings.)
#[test]
fn a_wedge_turns_about_without_crossing_paths() {
    let squad = Squad::default();
    for hz in RATES {
        let r = groups::about_face(hz, &squad);
        eprintln!("at {hz} Hz: {r:?}");
        assert_eq!(r.crossings, 0, "at {hz} Hz: members' paths crossed");
        assert!(
            r.off_px <= 0.05 * squad.spacing,
            "at {hz} Hz: a place was {} px from a member",
            r.off_px
        );
    }
}

/// A wedge of 12 walking east; 2 s in, four members fall (despawned), and
/// 6 s in, two new ones join from 300 px behind. Each time, the rest take
/// the places of a wedge of their number (no place left empty), and within
/// 3 s every place has a member within 5% of the spacing (the leader
/// slowing for them meanwhile). (With the fallen kept on the roll, 4 places
/// stay empty: 57 px.)
#[test]
fn members_that_fall_or_join_take_places_again() {
    let squad = Squad::default();
    for hz in RATES {
        let r = groups::fall_and_join(hz, &squad);
        eprintln!("at {hz} Hz: {r:?}");
        assert_eq!(
            (r.after_fall, r.after_join),
            (8, 10),
            "at {hz} Hz: members counted"
        );
        assert!(
            r.off_after_fall_px <= 0.05 * squad.spacing,
            "at {hz} Hz: {} px off after the fall",
            r.off_after_fall_px
        );
        assert!(
            r.off_after_join_px <= 0.05 * squad.spacing,
            "at {hz} Hz: {} px off after the join",
            r.off_after_join_px
        );
    }
}

/// Every shape through a door half its width: a box of 9 and a line of 6,
/// 40 and 30 px apart, and a ring of 8, 30 px apart. All through, no body
/// in another or in the wall, every place held within 5% of the spacing 3
/// s after. (When members left the column as soon as each saw its place,
/// and went straight there, two of the line's were pushed round the door's
/// edge, behind the wall, and never came through.)
#[test]
fn every_shape_goes_through_a_door_half_its_width() {
    use bevy_reynolds::FormationShape;
    for squad in [
        Squad {
            shape: FormationShape::Box,
            members: 9,
            spacing: 40.0,
        },
        Squad {
            shape: FormationShape::Line,
            members: 6,
            spacing: 30.0,
        },
        Squad {
            shape: FormationShape::Circle,
            members: 8,
            spacing: 30.0,
        },
    ] {
        for hz in RATES {
            let r = groups::door(hz, &squad);
            eprintln!("{:?} at {hz} Hz: {r:?}", squad.shape);
            assert!(
                r.through_s.is_some(),
                "{squad:?} at {hz} Hz: not all through"
            );
            assert!(
                r.deepest_overlap_px <= OVERLAP,
                "{squad:?} at {hz} Hz: {r:?}"
            );
            assert!(r.nearest_wall_px >= 0.0, "{squad:?} at {hz} Hz: {r:?}");
            assert!(
                r.off_after_px <= 0.05 * squad.spacing,
                "{squad:?} at {hz} Hz: {r:?}"
            );
        }
    }
}
