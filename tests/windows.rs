//! The Critters demo as a user sees it: a real window under Xvfb, rendered
//! by Mesa's software Vulkan, with a real cursor moved by xdotool.
//!
//! Needs `xvfb-run` and `xdotool` (`.ci/run` installs them with
//! `mesa-vulkan-drivers`). Without them the tests say so and pass, except
//! under CI (`CI` set), where a missing display is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// An example, built by `cargo test` beside this test's own binary.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary has a path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("tests live in <target>/<profile>/deps");
    profile_dir.join("examples").join(name)
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the display tools are here; panics under CI if they are not.
fn display_available() -> bool {
    let ok = have("xvfb-run") && have("xdotool");
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install xvfb, xdotool and mesa-vulkan-drivers"
        );
        eprintln!("skipped: xvfb-run or xdotool is not installed");
    }
    ok
}

/// Runs a shell `script` under a fresh Xvfb display, with `$CRITTERS`,
/// `$BOIDS`, `$HERD`, `$FLOCK3D`, `$LEVEL`, `$CROWD` and `$PHYSICS` set to
/// the demos.
fn under_xvfb(script: &str) {
    // One demo at a time: software rendering takes both cores, and demos
    // run side by side see their cursors late and their frames stall.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let status = Command::new("timeout")
        .args([
            "300",
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1280x1024x24",
            "sh",
            "-c",
            script,
        ])
        .env("CRITTERS", example("critters"))
        .env("BOIDS", example("boids"))
        .env("HERD", example("herd_3d"))
        .env("FLOCK3D", example("flock_3d"))
        .env("LEVEL", example("level"))
        .env("CROWD", example("crowd"))
        .env("PHYSICS", example("physics"))
        .env("WGPU_BACKEND", "vulkan")
        .status()
        .expect("xvfb-run starts");
    assert!(status.success(), "the demo failed under Xvfb: {status}");
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bevy_reynolds-{}-{name}", std::process::id()))
}

/// The PNG at `path`, as RGB pixels.
fn read_png(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("the screenshot was written"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, pixels)
}

/// The JSON report a demo wrote at `path`.
fn read_report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the report was written"))
        .expect("the report is JSON")
}

/// Critters with `flags` for 12 s, the cursor put at (600, 300) on screen,
/// which is (600, 400) in the world (y up), once the window is up, and left
/// there: its report. (The window takes a few seconds to come up on a busy
/// machine; 12 s leaves the agents time to settle after that.)
fn critters_with_a_still_cursor(flags: &str, name: &str) -> serde_json::Value {
    let report = temp_path(&format!("{name}.json"));
    under_xvfb(&format!(
        "\"$CRITTERS\" --seed 5 --seconds 12 {flags} --report '{}' & pid=$!; \
         xdotool search --sync --name Critters >/dev/null; \
         for i in 1 2 3 4 5; do xdotool mousemove 600 300; sleep 0.2; done; \
         wait $pid",
        report.display()
    ));
    read_report(&report)
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= tolerance)
}

#[test]
fn the_screenshot_shows_every_kind_the_key_and_the_panel() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("critters.png"), temp_path("critters.json"));
    under_xvfb(&format!(
        "\"$CRITTERS\" --seed 3 --seconds 3 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let (width, height, pixels) = read_png(&shot);
    // The field (1000 × 700) and the tuning panel docked beside it.
    assert_eq!((width, height), (1000 + 260, 700));
    // The exercises in the panel's column, off the field where the agents
    // chase the mouse.
    let windows = read_report(&report)["windows"].clone();
    let exercises = windows["Exercises"]
        .as_array()
        .expect("the Exercises window")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect::<Vec<_>>();
    assert!(
        exercises[0] >= 1000.0 && exercises[2] <= 1260.0 && exercises[3] <= 700.0,
        "the exercises are over the field: {exercises:?}"
    );
    let at = |x: u32, y: u32| pixels[(y * width + x) as usize];

    let kinds = [
        ("seek", [47, 111, 235]),
        ("arrive", [47, 158, 68]),
        ("pursue", [150, 102, 230]),
        ("wander", [235, 238, 242]),
        ("graze", [224, 49, 49]),
    ];
    for (name, color) in kinds {
        // The key: a dot of radius 6 in the top-left corner, in the kind's color.
        let in_key = (0..140)
            .flat_map(|y| (0..120).map(move |x| (x, y)))
            .filter(|&(x, y)| close(at(x, y), color, 6))
            .count();
        assert!(in_key >= 60, "the key shows {in_key} px of {name}");
        // The agents: bodies and trails, outside the key.
        let in_world = (140..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| close(at(x, y), color, 6))
            .count();
        assert!(in_world >= 60, "the world shows {in_world} px of {name}");
    }
    // The panel: egui's dark window, a large block of its fill color.
    let panel = pixels
        .iter()
        .filter(|&&p| close(p, [27, 27, 27], 2))
        .count();
    assert!(panel > 20_000, "the panel covers {panel} px");
}

#[test]
fn arrivers_settle_on_a_still_cursor_while_seekers_fly_through_it() {
    if !display_available() {
        return;
    }
    let report = critters_with_a_still_cursor("", "critters");
    let mouse = &report["mouse"];
    let (mx, my) = (mouse[0].as_f64().unwrap(), mouse[1].as_f64().unwrap());
    assert!(
        (mx - 600.0).abs() < 2.0 && (my - 400.0).abs() < 2.0,
        "the demo saw the cursor at ({mx}, {my})"
    );
    let still_for =
        report["seconds"].as_f64().unwrap() - report["mouse_moved_at"].as_f64().unwrap();
    assert!(
        still_for >= 4.0,
        "the cursor was still for only {still_for:.1} s"
    );

    let agents = report["agents"].as_array().unwrap();
    let of_kind = |kind: &str| {
        agents
            .iter()
            .filter(move |a| a["kind"] == kind)
            .map(|a| {
                let p = &a["pos"];
                let v = &a["vel"];
                let distance = (p[0].as_f64().unwrap() - mx).hypot(p[1].as_f64().unwrap() - my);
                let speed = v[0].as_f64().unwrap().hypot(v[1].as_f64().unwrap());
                (distance, speed)
            })
            .collect::<Vec<_>>()
    };
    let arrivers = of_kind("arrive");
    let seekers = of_kind("seek");
    assert_eq!((arrivers.len(), seekers.len()), (3, 3));
    for (distance, speed) in &arrivers {
        assert!(
            *distance < 3.0,
            "an arriver sits {distance:.1} px from the cursor"
        );
        assert!(*speed < 5.0, "an arriver still moves at {speed:.1} px/s");
    }
    for (distance, speed) in &seekers {
        // Flying back and forth through it: never sitting on it as the
        // arrivers do, and never farther than their ~65 px overshoot.
        assert!(*distance < 90.0, "a seeker is {distance:.1} px away");
        assert!(
            *distance > 3.0 || *speed > 50.0,
            "a seeker has settled: {speed:.1} px/s at {distance:.1} px"
        );
    }
    // The report is one instant: the seekers swing in step, and may all be
    // at the end of a swing (seen: 11 to 50 px/s, 34 to 41 px out), but
    // then they are far out, where no arriver is.
    assert!(
        seekers.iter().any(|(d, speed)| *d > 10.0 || *speed > 50.0),
        "no seeker is flying through the cursor: {seekers:?}"
    );
}

#[test]
fn the_boids_demo_draws_a_flock_and_its_panel() {
    if !display_available() {
        return;
    }
    let shot = temp_path("boids.png");
    under_xvfb(&format!(
        "\"$BOIDS\" --seed 2 --boids 300 --seconds 2 --screenshot '{}'",
        shot.display()
    ));
    let (width, height, pixels) = read_png(&shot);
    assert_eq!((width, height), (1000, 700));
    let boid = pixels
        .iter()
        .filter(|&&p| close(p, [150, 180, 235], 8))
        .count();
    assert!(boid > 3_000, "the boids cover {boid} px");
    let panel = pixels
        .iter()
        .filter(|&&p| close(p, [27, 27, 27], 2))
        .count();
    assert!(panel > 20_000, "the panels cover {panel} px");
}

#[test]
fn separated_arrivers_huddle_round_a_still_cursor_instead_of_piling_up() {
    if !display_available() {
        return;
    }
    let report = critters_with_a_still_cursor("--separate-arrivers", "critters-separated");
    let still_for =
        report["seconds"].as_f64().unwrap() - report["mouse_moved_at"].as_f64().unwrap();
    assert!(
        still_for >= 4.0,
        "the cursor was still for only {still_for:.1} s"
    );
    let arrivers: Vec<(f64, f64)> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "arrive")
        .map(|a| {
            assert_eq!(a["flocking"], true, "the flag gives arrivers separation");
            (a["pos"][0].as_f64().unwrap(), a["pos"][1].as_f64().unwrap())
        })
        .collect();
    assert_eq!(arrivers.len(), 3);
    let mut closest = f64::INFINITY;
    for (i, a) in arrivers.iter().enumerate() {
        // Round the cursor, at (600, 400) in the world (pushing each other
        // about, they jostle rather than sit: 26 to 46 px from it across
        // runs; without separation all three are within 3 px)...
        assert!(
            (a.0 - 600.0).hypot(a.1 - 400.0) < 60.0,
            "an arriver at {a:?}"
        );
        for b in &arrivers[i + 1..] {
            closest = closest.min((a.0 - b.0).hypot(a.1 - b.1));
        }
    }
    // ...but not on top of each other, as they are without separation.
    assert!(closest > 10.0, "two arrivers are {closest:.1} px apart");
    eprintln!("separated arrivers: the closest two are {closest:.1} px apart");
}

#[test]
fn the_3d_herd_is_drawn_on_the_ground_and_moves_there() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("herd.png"), temp_path("herd.json"));
    under_xvfb(&format!(
        "\"$HERD\" --seed 4 --seconds 4 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let (width, height, pixels) = read_png(&shot);
    assert_eq!((width, height), (1260, 700));
    for (name, color) in [
        ("seekers", [47, 111, 235]),
        ("arrivers", [47, 158, 68]),
        ("grazers", [224, 49, 49]),
        ("the marker", [240, 200, 60]),
        ("the ground", [40, 46, 40]),
    ] {
        let seen = pixels.iter().filter(|&&p| close(p, color, 6)).count();
        assert!(seen >= 150, "the screenshot shows {seen} px of {name}");
    }
    let report = read_report(&report);
    // The field is drawn beside the docked panel (the window's right 260
    // px), not under it: all of it left of the panel, and none of the
    // ground's color in the panel's strip. (Drawn over the whole window, the
    // field reached x = 1,108, under the panel.)
    let field: Vec<f64> = (0..4)
        .map(|i| report["field_in_window"][i].as_f64().unwrap())
        .collect();
    eprintln!("the herd's field in the window: {field:?}");
    assert!(
        field[0] >= 0.0 && field[2] <= 1000.0,
        "the field spans x {} to {} of the window",
        field[0],
        field[2]
    );
    let strip = pixels
        .iter()
        .enumerate()
        // (Within 2: the panel's grays are 6 off the ground's green.)
        .filter(|(i, p)| *i as u32 % width >= 1000 && close(**p, [40, 46, 40], 2))
        .count();
    assert_eq!(strip, 0, "{strip} px of the ground in the panel's strip");
    let agents = report["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 60);
    let mut moved = 0;
    for agent in agents {
        let t = &agent["translation"];
        let (x, y, z) = (
            t[0].as_f64().unwrap(),
            t[1].as_f64().unwrap(),
            t[2].as_f64().unwrap(),
        );
        let start = &agent["start"];
        // The plugin moves agents on the ground and leaves their height.
        assert_eq!(y, 0.5, "an agent's height changed");
        let travelled = (x - start[0].as_f64().unwrap()).hypot(z - start[1].as_f64().unwrap());
        moved += (travelled > 2.0) as usize;
    }
    assert!(moved >= 55, "only {moved} of 60 agents moved 2 m in 4 s");
}

/// The 3D flock for 5 s: its birds are drawn beside the docked panel (none
/// of their color in the panel's strip), the camera shows most of them and
/// the hawk; they fly in 3D (spread over more than 3 m of height) and in
/// flocks (a bird's neighbors within 3.5 m fly its way: their mean
/// direction's length, over all birds, above 0.8; headed every way it
/// would be near 0.1).
#[test]
fn the_3d_flock_flies_in_flocks_beside_its_panel() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("flock3d.png"), temp_path("flock3d.json"));
    under_xvfb(&format!(
        "\"$FLOCK3D\" --seed 3 --seconds 5 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let (width, height, pixels) = read_png(&shot);
    assert_eq!((width, height), (1260, 700));
    let (bird, hawk) = ([150, 190, 240], [230, 60, 50]);
    let seen = |color, beside: bool| {
        pixels
            .iter()
            .enumerate()
            .filter(|(i, p)| (*i as u32 % width < 1000) == beside && close(**p, color, 8))
            .count()
    };
    let (birds_drawn, hawk_drawn) = (seen(bird, true), seen(hawk, true));
    eprintln!("flock 3D: birds {birds_drawn} px, hawk {hawk_drawn} px");
    assert!(birds_drawn >= 5_000, "the birds cover {birds_drawn} px");
    assert!(hawk_drawn >= 20, "the hawk covers {hawk_drawn} px");
    assert_eq!(seen(bird, false), 0, "birds drawn in the panel's strip");
    let report = read_report(&report);
    let birds: Vec<([f64; 3], [f64; 3])> = report["birds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let v = |key: &str| std::array::from_fn(|i| b[key][i].as_f64().unwrap());
            (v("pos"), v("vel"))
        })
        .collect();
    assert_eq!(birds.len(), 1500);
    let in_view = report["birds_in_view"].as_u64().unwrap();
    assert!(in_view >= 1000, "the camera shows {in_view} of 1,500 birds");
    let n = birds.len() as f64;
    let mean_y = birds.iter().map(|b| b.0[1]).sum::<f64>() / n;
    let height_spread = (birds.iter().map(|b| (b.0[1] - mean_y).powi(2)).sum::<f64>() / n).sqrt();
    let unit = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-9);
        v.map(|c| c / l)
    };
    let mut local = 0.0;
    for (p, v) in &birds {
        let mut sum = unit(*v);
        for (q, w) in &birds {
            let d2: f64 = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum();
            if d2 > 0.0 && d2 < 3.5 * 3.5 {
                let w = unit(*w);
                sum = std::array::from_fn(|i| sum[i] + w[i]);
            }
        }
        let l = (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]).sqrt();
        let count = birds
            .iter()
            .filter(|(q, _)| (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>() < 3.5 * 3.5)
            .count();
        local += l / count as f64;
    }
    local /= n;
    eprintln!(
        "flock 3D: {in_view} birds in view, height spread {height_spread:.1} m, local alignment {local:.2}"
    );
    assert!(
        height_spread > 3.0,
        "the birds' heights spread {height_spread} m"
    );
    assert!(local > 0.8, "neighbors fly one way: {local}");
}

/// The 3D herd's debug view lies on the ground where the agents walk: each
/// rock's circle drawn round the rock (its rim, projected into the window
/// by the camera, in the report), no rock's color anywhere else, and the
/// walkers' loop and the look-aheads on the field. (Before, the herd had
/// no debug view: the flat one draws meshes on the XY plane, which a 3D
/// camera looking at the ground never shows.)
#[test]
fn the_3d_herds_debug_view_lies_on_the_ground() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("herd-debug.png"), temp_path("herd-debug.json"));
    under_xvfb(&format!(
        "\"$HERD\" --seed 4 --seconds 3 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let (width, _, pixels) = read_png(&shot);
    let report = read_report(&report);
    let rims: Vec<[f64; 4]> = report["rock_rims_in_window"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| std::array::from_fn(|i| r[i].as_f64().unwrap()))
        .collect();
    assert_eq!(rims.len(), 3, "the report names three rocks");
    // Round each rim, a few pixels' margin for the line's width.
    let near = |rim: &[f64; 4], x: f64, y: f64| {
        x >= rim[0] - 4.0 && x <= rim[2] + 4.0 && y >= rim[1] - 4.0 && y <= rim[3] + 4.0
    };
    let (rock, road, look) = ([120, 108, 92], [200, 170, 60], [70, 78, 90]);
    let (mut by_rock, mut elsewhere, mut roads, mut looks) = ([0usize; 3], 0, 0, 0);
    for (i, &p) in pixels.iter().enumerate() {
        let (x, y) = (
            (i as u32 % width) as f64 + 0.5,
            (i as u32 / width) as f64 + 0.5,
        );
        if close(p, rock, 10) {
            match rims.iter().position(|rim| near(rim, x, y)) {
                Some(r) => by_rock[r] += 1,
                None => elsewhere += 1,
            }
        }
        roads += close(p, road, 10) as usize;
        looks += close(p, look, 8) as usize;
    }
    eprintln!(
        "herd's debug view: rock circles {by_rock:?} px round the rocks, {elsewhere} px elsewhere; loop {roads} px; look-aheads {looks} px"
    );
    for (r, seen) in by_rock.iter().enumerate() {
        assert!(*seen >= 40, "rock {r}'s circle shows {seen} px round it");
    }
    // (A line's anti-aliased edge over the ground or another line can mix
    // to about the rocks' color: a little of it is found anywhere.)
    assert!(
        elsewhere * 4 < by_rock.iter().sum::<usize>(),
        "{elsewhere} px of the rocks' color away from every rock"
    );
    assert!(roads >= 300, "the walkers' loop shows {roads} px");
    assert!(looks >= 100, "the look-aheads show {looks} px");
}

/// The 3D herd for 15 s: every agent is still on the field (50 m square,
/// round the origin); grazers bolting from the marker ran off it into the
/// dark before they were given the field as their containment (20 of 60
/// were 30 to 150 m out).
#[test]
fn the_3d_herd_stays_on_its_field() {
    if !display_available() {
        return;
    }
    let report = temp_path("herd-field.json");
    under_xvfb(&format!(
        "\"$HERD\" --seed 4 --seconds 15 --report '{}'",
        report.display()
    ));
    let report = read_report(&report);
    let agents = report["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 60);
    let off: Vec<(f64, f64)> = agents
        .iter()
        .map(|a| {
            let t = &a["translation"];
            (t[0].as_f64().unwrap(), t[2].as_f64().unwrap())
        })
        .filter(|(x, z)| x.abs().max(z.abs()) > 25.0)
        .collect();
    assert!(
        off.is_empty(),
        "{} agents off the field: {off:?}",
        off.len()
    );
}

/// The level demo, unattended, with its screenshot and report.
fn run_level(seed: u64, name: &str) -> (Vec<[u8; 3]>, serde_json::Value) {
    let (shot, report) = (
        temp_path(&format!("{name}.png")),
        temp_path(&format!("{name}.json")),
    );
    under_xvfb(&format!(
        "\"$LEVEL\" --seed {seed} --seconds 6 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let (width, height, pixels) = read_png(&shot);
    // The field, 1000 x 700, and the panel docked beside it.
    assert_eq!((width, height), (1260, 700));
    (pixels, read_report(&report))
}

/// The level's tuning panel is docked down the window's right edge, and
/// the field drawn beside it, one pixel a pixel: the rock at (850, 130)
/// is seen whole (it stood under the floating panel, as did a third of
/// the field), and the panel's strip shows nothing of the field.
#[test]
fn the_levels_field_is_drawn_beside_its_panel() {
    if !display_available() {
        return;
    }
    let (pixels, report) = run_level(3, "level-beside");
    let corners = &report["field_in_window"];
    for (i, want) in [0.0, 0.0, 1000.0, 700.0].into_iter().enumerate() {
        let got = corners[i].as_f64().unwrap();
        assert!(
            (got - want).abs() < 0.5,
            "the field's corners in the window: {corners}"
        );
    }
    let at = |x: i32, y: i32| pixels[(y * 1260 + x) as usize];
    let rock = [120, 108, 92];
    // The rock (radius 38) at the window's (850, 570): its disc within 34 px.
    let disc: Vec<(i32, i32)> = (-34..=34)
        .flat_map(|dy| (-34..=34).map(move |dx| (dx, dy)))
        .filter(|(dx, dy)| dx * dx + dy * dy <= 34 * 34)
        .collect();
    let seen = disc
        .iter()
        .filter(|(dx, dy)| close(at(850 + dx, 570 + dy), rock, 6))
        .count();
    assert!(
        seen * 10 >= disc.len() * 8,
        "{seen} of the rock's {} px are seen",
        disc.len()
    );
    // The panel's strip: the panel, and no rock, path or agent in it.
    let strip: Vec<[u8; 3]> = (0..700)
        .flat_map(|y| (1000..1260).map(move |x| (x, y)))
        .map(|(x, y)| at(x, y))
        .collect();
    for (name, color) in [
        ("rocks", rock),
        ("the path", [200, 170, 60]),
        ("grazers", [47, 158, 68]),
    ] {
        let under = strip.iter().filter(|&&p| close(p, color, 6)).count();
        assert_eq!(under, 0, "{under} px of {name} in the panel's strip");
    }
    let panel = strip.iter().filter(|&&p| close(p, [27, 27, 27], 2)).count();
    assert!(
        panel * 2 >= strip.len(),
        "the panel fills {panel} of its strip's {} px",
        strip.len()
    );
}

#[test]
fn the_level_draws_its_rocks_path_and_agents_and_the_patrol_goes_round() {
    if !display_available() {
        return;
    }
    let (pixels, report) = run_level(3, "level");
    for (name, color, least) in [
        ("rocks and walls", [120, 108, 92], 5000),
        ("the path", [200, 170, 60], 300),
        ("patrollers", [47, 111, 235], 100),
        ("grazers", [47, 158, 68], 300),
    ] {
        let seen = pixels.iter().filter(|&&p| close(p, color, 6)).count();
        assert!(seen >= least, "the screenshot shows {seen} px of {name}");
    }
    let agents = report["agents"].as_array().unwrap();
    // 6 patrollers, 24 grazers, 4 travellers, and a squad of 7.
    assert_eq!(agents.len(), 41);
    // Each patroller went on round the loop from where it started: 6 s at
    // up to 220 px/s is at most 1,320 px; at least 600 px of it.
    let loop_length = 1785.6; // the patrol loop in examples/level.rs
    for (i, patroller) in agents
        .iter()
        .filter(|a| a["kind"] == "patroller")
        .enumerate()
    {
        let start = loop_length * i as f64 / 6.0;
        let cursor = patroller["cursor"].as_f64().unwrap();
        assert!(
            cursor - start > 600.0,
            "patroller {i} went {} px",
            cursor - start
        );
    }
}

/// A click on the level's ground, 3 s in, sends the travellers there (all
/// are selected at first), each to a place of its own round it: at 16 s
/// (of the demo's time, which software rendering slows), each stands at
/// its place, and the screenshot shows them.
#[test]
fn a_click_sends_the_levels_travellers_there() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("level-click.png"), temp_path("level-click.json"));
    // The window's pixel (250, 600) is the field's point (250, 100): the
    // camera shows the field one pixel a pixel, y up.
    under_xvfb(&format!(
        "\"$LEVEL\" --seed 3 --seconds 16 --screenshot '{}' --report '{}' & \
         xdotool search --sync --name Level >/dev/null; sleep 3; \
         xdotool mousemove 250 600; sleep 0.3; xdotool click 1; wait",
        shot.display(),
        report.display()
    ));
    let report = read_report(&report);
    let travellers: Vec<_> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "traveller")
        .collect();
    assert_eq!(travellers.len(), 4);
    for traveller in travellers {
        // Each to a place of its own round the click: four on a
        // sunflower's spiral 17.6 px a step, the farthest 30.5 px out.
        let goal = &traveller["goal"];
        let (gx, gy) = (goal[0].as_f64().unwrap(), goal[1].as_f64().unwrap());
        assert!(
            (gx - 250.0).hypot(gy - 100.0) < 32.0,
            "sent to ({gx}, {gy})"
        );
        let pos = &traveller["pos"];
        let (x, y) = (pos[0].as_f64().unwrap(), pos[1].as_f64().unwrap());
        assert!(
            (x - gx).hypot(y - gy) < 8.0,
            "a traveller sent to ({gx}, {gy}) is at ({x}, {y})"
        );
    }
    let (_, _, pixels) = read_png(&shot);
    let orange = pixels
        .iter()
        .filter(|&&p| close(p, [240, 140, 30], 6))
        .count();
    assert!(
        orange >= 100,
        "the screenshot shows {orange} px of travellers"
    );
}

/// A right-click on the field sends the level's squad there; one on the
/// docked panel beside the field sends no one (it went on to the field's
/// point under the panel, off the field, before the cursor was kept to
/// the field's part of the window).
#[test]
fn a_click_on_the_docked_panel_sends_no_one() {
    if !display_available() {
        return;
    }
    let report = temp_path("level-panel-click.json");
    under_xvfb(&format!(
        "\"$LEVEL\" --grazers 0 --seed 3 --seconds 5 --report '{}' & \
         xdotool search --sync --name Level >/dev/null; sleep 3; \
         xdotool mousemove 700 300; sleep 0.3; xdotool click 3; sleep 0.5; \
         xdotool mousemove 1100 300; sleep 0.3; xdotool click 3; wait",
        report.display()
    ));
    let report = read_report(&report);
    let leader = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "leader")
        .expect("the squad has a leader");
    // The window's (700, 300) is the field's (700, 400).
    assert_eq!(leader["goal"], serde_json::json!([700.0, 400.0]));
}

#[test]
fn in_the_level_no_body_enters_a_rock_or_passes_a_wall() {
    if !display_available() {
        return;
    }
    let (_, report) = run_level(3, "level-clearance");
    let least = report["least_clearance_px"].as_f64().unwrap();
    // A body the crowd's contact step put on a rock's edge is on it to a
    // few of f32's steps there (6e-5 px at 1,000 px).
    assert!(
        least >= -1e-3,
        "a body went {least} px into a rock or a wall"
    );
}

/// The level's squad, a wedge of 6 behind its leader (24 px apart), sent
/// north between two rocks too close for the wedge: 3 s in it walks in a
/// column; at 16 s it stands in its wedge, every place held within a
/// quarter of the spacing, and the screenshot shows it. Without the
/// grazers, which bolt through it from the cursor wherever the display
/// puts it (with them, 3 to 20 px off at 16 s).
#[test]
fn the_levels_squad_walks_in_a_column_between_rocks_and_forms_up_after() {
    if !display_available() {
        return;
    }
    let (shot, report) = (
        temp_path("level-squad-between.png"),
        temp_path("level-squad-between.json"),
    );
    under_xvfb(&format!(
        "\"$LEVEL\" --grazers 0 --seed 3 --seconds 3 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let between = read_report(&report);
    assert_eq!(between["squad"]["members"], 6);
    assert_eq!(
        between["squad"]["in_column"], true,
        "3 s in, between the rocks: {}",
        between["squad"]
    );
    let (shot, report) = (temp_path("level-squad.png"), temp_path("level-squad.json"));
    under_xvfb(&format!(
        "\"$LEVEL\" --grazers 0 --seed 3 --seconds 16 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let after = read_report(&report)["squad"].clone();
    assert_eq!(after["in_column"], false, "at 16 s: {after}");
    let off = after["off_places_px"].as_f64().unwrap();
    assert!(
        off <= 6.0,
        "at 16 s a place of the wedge was {off} px from a member"
    );
    let (_, _, pixels) = read_png(&shot);
    let purple = pixels
        .iter()
        .filter(|&&p| close(p, [150, 90, 220], 6))
        .count();
    assert!(
        purple >= 100,
        "the screenshot shows {purple} px of the squad"
    );
}

/// The crowd demo, unattended for 20 s: the plaza's walls and all four
/// groups are drawn, the crowd's panel beside the plaza and not over it;
/// at least 45 crossings through the doors (68, and 78 taking turns; 23 and
/// 35 when those sent with `Navigate` kept to their routes' corners, all
/// heading for the same door post), and no two bodies, nor a body and a
/// wall, ever went into each other by more than a centimetre (0.16 px, at
/// the demo's 16 px a metre). The same with the doors taking turns
/// (`--turns`), and their white arrows drawn in the doors.
#[test]
fn the_crowd_crosses_the_plaza_without_a_body_in_another() {
    if !display_available() {
        return;
    }
    for turns in [false, true] {
        crowd_crosses_the_plaza(turns);
    }
}

fn crowd_crosses_the_plaza(turns: bool) {
    let (shot, report) = (temp_path("crowd.png"), temp_path("crowd.json"));
    under_xvfb(&format!(
        "\"$CROWD\" --seed 5 --seconds 20 --screenshot '{}' --report '{}'{}",
        shot.display(),
        report.display(),
        if turns { " --turns" } else { "" }
    ));
    let (width, height, pixels) = read_png(&shot);
    assert_eq!((width, height), (1000, 700));
    let at = |x: usize, y: usize| pixels[y * width as usize + x];
    // The plaza is x < 700; the panel is to its right.
    let in_plaza = |color: [u8; 3]| {
        (0..700)
            .flat_map(|y| (0..700).map(move |x| (x, y)))
            .filter(|&(x, y)| close(at(x, y), color, 6))
            .count()
    };
    for (name, color, least) in [
        ("walls", [120, 108, 92], 3000),
        ("the blue group", [47, 111, 235], 100),
        ("the orange group", [235, 140, 47], 100),
        ("the green group", [47, 158, 68], 100),
        ("the magenta group", [200, 60, 160], 100),
    ] {
        let seen = in_plaza(color);
        assert!(seen >= least, "the plaza shows {seen} px of {name}");
    }
    // The doors' arrows: white, in the plaza, only when they take turns.
    let arrows = in_plaza([255, 255, 255]);
    assert_eq!(arrows >= 40, turns, "{arrows} px of arrows, turns {turns}");
    let panel = [27, 27, 27];
    let (beside, over) = (0..700).flat_map(|y| (0..1000).map(move |x| (x, y))).fold(
        (0, 0),
        |(beside, over), (x, y)| match close(at(x, y), panel, 2) {
            true if x >= 700 => (beside + 1, over),
            true => (beside, over + 1),
            false => (beside, over),
        },
    );
    assert!(
        beside > 20_000,
        "the panel shows {beside} px beside the plaza"
    );
    assert!(over < 100, "the panel covers {over} px of the plaza");
    let report = read_report(&report);
    let crossings: u64 = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["crossings"].as_u64().unwrap())
        .sum();
    assert!(crossings >= 45, "{crossings} crossings in 20 s");
    for key in ["deepest_overlap_px", "deepest_into_wall_px"] {
        let deepest = report[key].as_f64().unwrap();
        assert!(deepest <= 0.16, "{key}: {deepest}");
    }
}

/// The crowd demo goes the same way every run of one seed, whatever its
/// frames: two runs of 4 s end with every person at the same place and
/// velocity, to the bit. With routes taken as soon as they were found
/// rather than at their step, all 96 were elsewhere in both of two tries.
/// (Spawned in `Startup`, beside the plugins' own systems, its people got
/// other entities in some runs (2 of 14), and the plugin breaks ties by
/// entity: two runs of seed 5 parted at the 16th step, as the first routes
/// came, and made 73 and 78 crossings in 20 s.)
#[test]
fn the_crowd_demo_goes_the_same_way_twice() {
    if !display_available() {
        return;
    }
    let runs: Vec<serde_json::Value> = (0..2)
        .map(|run| {
            let report = temp_path(&format!("crowd-run-{run}.json"));
            under_xvfb(&format!(
                "\"$CROWD\" --seed 5 --seconds 4 --report '{}'",
                report.display()
            ));
            read_report(&report)
        })
        .collect();
    assert_eq!(
        runs[0]["seconds"], runs[1]["seconds"],
        "reported at one step"
    );
    let people = runs[0]["agents"].as_array().map_or(0, Vec::len);
    assert_eq!(people, 96);
    let differ = (0..people)
        .filter(|&i| runs[0]["agents"][i] != runs[1]["agents"][i])
        .count();
    assert_eq!(
        differ, 0,
        "{differ} of {people} people elsewhere in the second run"
    );
}

/// Every demo, 2 s under Xvfb: not one ERROR line in its log. (The debug
/// view's meshes started empty, and the renderer, which allocates no room
/// for a mesh with no vertices, logged "Use-after-free: attempted to copy
/// element data for an unallocated key" 4 to 6 times as Critters, Boids,
/// the level and the crowd started.)
/// The physics demo: its crowd of avian bodies, sent across the room,
/// goes through the gap in the middle wall, never into a wall (avian
/// colliders, seen as obstacles), pushing crates aside; the screenshot
/// shows the walls, the crates and the crowd beside the docked panel.
#[test]
fn the_physics_crowd_crosses_the_room_pushing_crates() {
    if !display_available() {
        return;
    }
    let (shot, report) = (temp_path("physics.png"), temp_path("physics.json"));
    under_xvfb(&format!(
        "\"$PHYSICS\" --seed 3 --seconds 6 --screenshot '{}' --report '{}'",
        shot.display(),
        report.display()
    ));
    let report = read_report(&report);
    let least = report["least_clearance_px"].as_f64().unwrap();
    assert!(least >= -1e-3, "an agent went {least} px into a wall");
    let agents = report["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 16);
    // From the left wall to the far side, past the middle wall (x 500).
    let across = agents
        .iter()
        .filter(|a| a[0].as_f64().unwrap() > 520.0)
        .count();
    assert_eq!(across, 16, "{across} of 16 went through the gap");
    let pushed = report["crates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["pushed_px"].as_f64().unwrap() > 20.0)
        .count();
    assert!(pushed >= 3, "{pushed} crates were pushed aside");
    let (width, height, pixels) = read_png(&shot);
    assert_eq!((width, height), (1260, 700));
    let field = |x: u32, y: u32| x < 1000 && y < 700;
    for (name, color, least) in [
        ("walls", [120, 108, 92], 3000),
        ("crates", [160, 110, 60], 2000),
        ("agents", [240, 140, 30], 100),
    ] {
        let seen = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| field(x, y) && close(pixels[(y * width + x) as usize], color, 6))
            .count();
        assert!(seen >= least, "the screenshot shows {seen} px of {name}");
    }
}

#[test]
fn no_demo_logs_an_error() {
    if !display_available() {
        return;
    }
    for demo in [
        "CRITTERS", "BOIDS", "LEVEL", "CROWD", "HERD", "FLOCK3D", "PHYSICS",
    ] {
        let log = temp_path(&format!("{demo}-log.txt"));
        let shot = temp_path(&format!("{demo}-log.png"));
        under_xvfb(&format!(
            "\"${demo}\" --seconds 2 --screenshot '{}' 2> '{}'",
            shot.display(),
            log.display()
        ));
        let log = std::fs::read_to_string(&log).unwrap();
        let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
        assert!(
            errors.is_empty(),
            "{demo} logged {} errors, the first: {}",
            errors.len(),
            errors[0]
        );
    }
}
