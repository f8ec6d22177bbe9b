//! The Talisman board as data: regions (rings moved round by a die roll,
//! or a path taken one space a turn), spaces with their instructions, and
//! the links between regions (the Sentinel's stair, the Portal of Power).
//! A board on which the Crown of Command cannot be reached is refused.

use std::path::Path;

use serde::Deserialize;

use super::data::{Effect, EffectCompiler, EffectFile, Mechanic, index16};
use barsoom_engine::scenario::ScenarioError;

/// The board file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardFile {
    /// Where the layout and instructions come from.
    pub provenance: String,
    /// Regions, outermost first.
    pub regions: Vec<RegionFile>,
    /// Spaces, in board order within each region.
    pub spaces: Vec<SpaceFile>,
    /// Links between spaces of neighbouring regions.
    #[serde(default)]
    pub links: Vec<LinkFile>,
    /// Where the Storm River may be crossed by raft [11:18].
    #[serde(default)]
    pub river: Vec<RiverFile>,
}

/// A river bank as written: a space next to the Storm River and the
/// spaces directly opposite it in the next region inward [11:18].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RiverFile {
    bank: String,
    across: Vec<String>,
}

/// A region as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RegionFile {
    name: String,
    layout: String,
}

/// A space as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpaceFile {
    /// Its name.
    pub name: String,
    region: String,
    #[serde(default)]
    effects: Vec<EffectFile>,
    #[serde(default)]
    #[allow(dead_code)]
    text: String,
    /// A Woods or Forest space, where an Axe builds a raft [11:16].
    #[serde(default)]
    woods: bool,
    /// The board this space leads to (the City's file name) [11:35].
    pub board: Option<String>,
}

/// A link as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LinkFile {
    from: String,
    to: String,
}

/// One region.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// Its name.
    pub name: String,
    /// A ring (move a die roll either way [11:1]) or a path (one space a turn [11:3]).
    pub ring: bool,
    /// Its spaces in order.
    pub spaces: Vec<u16>,
    /// The expansion board it is (`None`: a region of the main board) [11:30].
    pub expansion: Option<u8>,
}

/// One space.
#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    /// Its name.
    pub name: String,
    /// Its region's index (0 is the outer region).
    pub region: u8,
    /// Its position within the region.
    pub position: u8,
    /// First effect in [`Board::effects`].
    pub effects_start: u16,
    /// Number of effects.
    pub effects_len: u16,
    /// Cards to draw up to, 0 if not a draw-card space [13:4].
    pub draw: u8,
    /// The space across a link, if any.
    pub link: Option<u16>,
    /// The first effect that governs movement (Sentinel, Portal, Valley, Crown).
    pub gate: Option<Effect>,
    /// A Woods or Forest space: an Axe builds a raft here [11:16].
    pub woods: bool,
    /// First space across the Storm River in [`Board::river`] [11:18].
    pub river_start: u16,
    /// How many spaces lie directly across the river (0: not on its bank).
    pub river_len: u8,
}

/// The compiled board.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// Regions, outermost first.
    pub regions: Vec<Region>,
    /// Spaces, indexed by number.
    pub spaces: Vec<Space>,
    /// Space effects, sliced by each space's range.
    pub effects: Vec<Effect>,
    /// The Crown of Command.
    pub crown: u16,
    /// Spaces across the Storm River, sliced by each space's range [11:18].
    pub river: Vec<u16>,
}

/// The most spaces the main board and its expansion boards may have in all
/// (per-game state is fixed-size): the main board (49) with the Dungeon, the
/// Keep and Timescape (56) leaves room for one more board.
pub(crate) const MAX_SPACES: usize = 144;

impl Board {
    /// How many regions the main board has (the expansion boards' regions
    /// follow them).
    pub(crate) fn main_regions(&self) -> usize {
        self.regions
            .iter()
            .filter(|r| r.expansion.is_none())
            .count()
    }

    /// A space's index by name.
    pub fn space_index(&self, name: &str) -> Option<usize> {
        self.spaces.iter().position(|s| s.name == name)
    }

    /// The effects of space `space`.
    pub(crate) fn effects_of(&self, space: usize) -> &[Effect] {
        let s = &self.spaces[space];
        let start = usize::from(s.effects_start);
        &self.effects[start..start + usize::from(s.effects_len)]
    }

    /// The space `steps` along a ring from `space`, clockwise if `clockwise`.
    pub fn ring_step(&self, space: usize, steps: u32, clockwise: bool) -> usize {
        let s = &self.spaces[space];
        let region = &self.regions[usize::from(s.region)];
        let n = region.spaces.len() as i64;
        let step = i64::from(steps) % n;
        let pos = i64::from(s.position) + if clockwise { step } else { n - step };
        usize::from(region.spaces[(pos % n) as usize])
    }

    /// The next space inward on a path region (`None` at its end).
    pub(crate) fn path_next(&self, space: usize) -> Option<usize> {
        let s = &self.spaces[space];
        let region = &self.regions[usize::from(s.region)];
        region
            .spaces
            .get(usize::from(s.position) + 1)
            .map(|x| usize::from(*x))
    }

    /// The first space of a region.
    pub(crate) fn region_entry(&self, region: usize) -> usize {
        usize::from(self.regions[region].spaces[0])
    }

    /// The spaces directly across the Storm River from `space` (empty if
    /// it is not on the river's bank) [11:18].
    pub fn across_river(&self, space: usize) -> &[u16] {
        let s = &self.spaces[space];
        let start = usize::from(s.river_start);
        &self.river[start..start + usize::from(s.river_len)]
    }

    /// Whether `space` has a gate of this mechanic.
    pub(crate) fn gate_is(&self, space: usize, mechanic: Mechanic) -> bool {
        self.spaces[space]
            .gate
            .is_some_and(|g| g.mechanic == mechanic)
    }

    /// Compiles the board file, checking that the Crown can be reached.
    pub(crate) fn compile(
        path: &Path,
        file: &BoardFile,
        compiler: &mut EffectCompiler<'_>,
    ) -> Result<Board, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        if file.regions.is_empty() || file.regions.len() > 4 {
            return Err(err(
                "regions".into(),
                "expected 1 to 4 regions, outermost first".into(),
            ));
        }
        let mut regions = Vec::new();
        for (i, r) in file.regions.iter().enumerate() {
            let ring = match r.layout.as_str() {
                "ring" => true,
                "path" => false,
                other => {
                    return Err(err(
                        format!("regions[{i}].layout"),
                        format!("expected ring or path, found {other:?}"),
                    ));
                }
            };
            regions.push(Region {
                name: r.name.clone(),
                ring,
                spaces: Vec::new(),
                expansion: None,
            });
        }
        if file.spaces.len() > MAX_SPACES {
            return Err(err(
                "spaces".into(),
                format!("expected at most {MAX_SPACES} spaces"),
            ));
        }
        let mut spaces = Vec::new();
        let mut effects = Vec::new();
        let mut crown = None;
        for (i, s) in file.spaces.iter().enumerate() {
            let field = format!("spaces[{i}]");
            if file.spaces[..i].iter().any(|o| o.name == s.name) {
                return Err(err(
                    format!("{field}.name"),
                    format!("{:?} appears twice", s.name),
                ));
            }
            let region = regions
                .iter()
                .position(|r| r.name == s.region)
                .ok_or_else(|| {
                    err(
                        format!("{field}.region"),
                        format!("no region named {:?}", s.region),
                    )
                })?;
            let start = index16(path, &field, effects.len())?;
            let (draw, gate) =
                compile_space_effects(path, &field, &s.effects, compiler, &mut effects)?;
            if s.effects.iter().any(|e| e.is_crown()) {
                if crown.is_some() {
                    return Err(err(
                        format!("{field}.effects"),
                        "a board has one Crown of Command".into(),
                    ));
                }
                crown = Some(i as u16);
            }
            let position = regions[region].spaces.len() as u8;
            regions[region].spaces.push(i as u16);
            spaces.push(Space {
                name: s.name.clone(),
                region: region as u8,
                position,
                effects_start: start,
                effects_len: s.effects.len() as u16,
                draw,
                link: None,
                gate,
                woods: s.woods,
                river_start: 0,
                river_len: 0,
            });
        }
        for (i, r) in regions.iter().enumerate() {
            if r.spaces.len() < 2 {
                return Err(err(
                    format!("regions[{i}]"),
                    format!("region {:?} needs at least 2 spaces", r.name),
                ));
            }
        }
        if !regions[0].ring {
            return Err(err(
                "regions[0].layout".into(),
                "the outer region must be a ring".into(),
            ));
        }
        let crown = crown.ok_or_else(|| {
            err(
                "spaces".into(),
                "expected one space with the crown effect (the Crown of Command)".into(),
            )
        })?;
        for (i, l) in file.links.iter().enumerate() {
            let find = |name: &str, sub: &str| {
                spaces.iter().position(|s| s.name == name).ok_or_else(|| {
                    err(
                        format!("links[{i}].{sub}"),
                        format!("no space named {name:?}"),
                    )
                })
            };
            let from = find(&l.from, "from")?;
            let to = find(&l.to, "to")?;
            if spaces[to].region != spaces[from].region + 1 {
                return Err(err(
                    format!("links[{i}].to"),
                    "a link goes from a space to one in the next region inward".into(),
                ));
            }
            if spaces[from].link.is_some() || spaces[to].link.is_some() {
                return Err(err(
                    format!("links[{i}]"),
                    "a space has at most one link".into(),
                ));
            }
            spaces[from].link = Some(to as u16);
            spaces[to].link = Some(from as u16);
        }
        let river = compile_river(path, file, &mut spaces)?;
        let board = Board {
            regions,
            spaces,
            effects,
            crown,
            river,
        };
        if let Some(stranded) = board.first_space_without_path_to_crown() {
            return Err(err(
                "links".into(),
                format!(
                    "no path from {:?} to the Crown of Command {:?}",
                    board.spaces[stranded].name,
                    board.spaces[usize::from(crown)].name
                ),
            ));
        }
        Ok(board)
    }

    /// Spaces reachable in one move or crossing from `space`.
    fn neighbours(&self, space: usize, out: &mut Vec<usize>) {
        out.clear();
        let s = &self.spaces[space];
        if self.regions[usize::from(s.region)].ring {
            for steps in 1..=6 {
                out.push(self.ring_step(space, steps, true));
                out.push(self.ring_step(space, steps, false));
            }
        } else if let Some(next) = self.path_next(space) {
            out.push(next);
        }
        if let Some(link) = s.link {
            out.push(usize::from(link));
        }
    }

    /// An outer-region space from which the Crown cannot be reached, if any.
    fn first_space_without_path_to_crown(&self) -> Option<usize> {
        let mut buffer = Vec::new();
        for &start in &self.regions[0].spaces {
            let mut seen = vec![false; self.spaces.len()];
            let mut stack = vec![usize::from(start)];
            seen[usize::from(start)] = true;
            let mut found = false;
            while let Some(s) = stack.pop() {
                if s == usize::from(self.crown) {
                    found = true;
                    break;
                }
                self.neighbours(s, &mut buffer);
                for &n in &buffer {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            if !found {
                return Some(usize::from(start));
            }
        }
        None
    }
}

/// Compiles a space's effects into `effects`: returns the cards a
/// draw-card space holds (0: none) [13:4] and its first gate (Sentinel,
/// Portal, Valley of Fire, Crown).
pub(crate) fn compile_space_effects(
    path: &Path,
    field: &str,
    files: &[EffectFile],
    compiler: &mut EffectCompiler<'_>,
    effects: &mut Vec<Effect>,
) -> Result<(u8, Option<Effect>), ScenarioError> {
    let mut draw = 0;
    let mut gate: Option<Effect> = None;
    for (j, e) in files.iter().enumerate() {
        let effect = compiler.compile(path, &format!("{field}.effects[{j}]"), e)?;
        match effect.mechanic {
            Mechanic::DrawCards => {
                draw = effect.amount.clamp(0, 8) as u8;
                if draw == 0 {
                    return Err(ScenarioError::new(
                        path,
                        format!("{field}.effects[{j}].amount"),
                        "expected 1 to 8 cards",
                    ));
                }
            }
            Mechanic::Sentinel | Mechanic::Portal | Mechanic::ValleyOfFire | Mechanic::Crown => {
                if effect.mechanic == Mechanic::Crown && files[..j].iter().any(|e| e.is_crown()) {
                    return Err(ScenarioError::new(
                        path,
                        format!("{field}.effects[{j}]"),
                        "a board has one Crown of Command",
                    ));
                }
                gate.get_or_insert(effect);
            }
            _ => {}
        }
        effects.push(effect);
    }
    index16(path, field, effects.len())?;
    Ok((draw, gate))
}

/// Compiles the river banks [11:18]: each bank lists the spaces directly
/// across in the next region inward, and the crossing works both ways, so
/// each inward space gets the banks that list it. Returns the flat list
/// the spaces' ranges index.
fn compile_river(
    path: &Path,
    file: &BoardFile,
    spaces: &mut [Space],
) -> Result<Vec<u16>, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    let find = |name: &str, field: String| {
        spaces
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| err(field, format!("no space named {name:?}")))
    };
    let mut pairs = Vec::new();
    for (i, bank) in file.river.iter().enumerate() {
        let from = find(&bank.bank, format!("river[{i}].bank"))?;
        if file.river[..i].iter().any(|b| b.bank == bank.bank) {
            return Err(err(
                format!("river[{i}].bank"),
                format!("{:?} appears twice", bank.bank),
            ));
        }
        if bank.across.is_empty() || bank.across.len() > 4 {
            return Err(err(
                format!("river[{i}].across"),
                "expected 1 to 4 spaces across the river".into(),
            ));
        }
        for (j, name) in bank.across.iter().enumerate() {
            let to = find(name, format!("river[{i}].across[{j}]"))?;
            if spaces[to].region != spaces[from].region + 1
                || !file.regions[usize::from(spaces[to].region)]
                    .layout
                    .eq("ring")
                || !file.regions[usize::from(spaces[from].region)]
                    .layout
                    .eq("ring")
            {
                return Err(err(
                    format!("river[{i}].across[{j}]"),
                    "the river runs between two ring regions, from a space to one in the next region inward".into(),
                ));
            }
            pairs.push((from as u16, to as u16));
        }
    }
    let mut river = Vec::new();
    for (index, space) in spaces.iter_mut().enumerate() {
        let index = index as u16;
        let start = river.len();
        for &(from, to) in &pairs {
            if from == index {
                river.push(to);
            } else if to == index {
                river.push(from);
            }
        }
        if river.len() - start > 8 {
            return Err(err(
                "river".into(),
                format!("{:?} has more than 8 spaces across the river", space.name),
            ));
        }
        space.river_start = start as u16;
        space.river_len = (river.len() - start) as u8;
    }
    Ok(river)
}
