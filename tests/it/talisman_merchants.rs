//! Talisman: merchants and the limited Purchase deck [Setting up:
//! Purchase, 20:1-3], hand-worked with scripted picks, and whole games
//! that keep every purchase card accounted for.

use barsoom::scenario::Load;

use barsoom::engine::TraceLog;
use barsoom::engine::rng::Dice;
use barsoom::games::talisman::character::{Hero, PURCHASE_BASE};
use barsoom::games::talisman::data::Rules;
use barsoom::games::talisman::game::{Cause, Config, Game, Source};
use barsoom::games::talisman::tournament::Tournament;

use crate::common;
use crate::common::ScriptedDice;
use crate::talisman_boards::{check_data_errors, load, space, temp};

fn rules() -> Rules {
    Rules::load(&common::bundled("talisman/data")).unwrap_or_else(|e| panic!("{e}"))
}

/// Four sensible seats with the Purchase deck limited and the merchants.
fn merchants_config() -> Config {
    Config {
        tournament: Tournament {
            merchants: true,
            ..Tournament::default()
        },
        ..crate::talisman_game::config(4)
    }
}

fn item(rules: &Rules, name: &str) -> usize {
    rules
        .purchases
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no purchase item {name}"))
}

/// A game with one sensible `who` for seat 1 on `at` with `gold`, the
/// Purchase deck full and no merchant stocked.
fn shopper<'a>(rules: &'a Rules, config: &'a Config, who: &str, at: &str, gold: i32) -> Game<'a> {
    let mut g = Game::new(rules, config);
    let p = &mut g.players[0];
    p.hero = Hero::new(rules, rules.character_index(who).expect("character"));
    p.hero.space = space(rules, at) as u16;
    p.hero.gold = gold;
    p.alive = true;
    p.out = false;
    p.policy = config.policies[0];
    g.fill_purchase_deck();
    g
}

fn holds(g: &Game<'_>, seat: usize, i: usize) -> bool {
    let card = PURCHASE_BASE + i as u16;
    g.players[seat].hero.objects().any(|o| o == card)
}

#[test]
fn each_merchant_is_dealt_five_cards_and_returns_those_of_other_sub_types_setting_up_purchase() {
    let rules = rules();
    let config = merchants_config();
    let market = rules.market.as_ref().expect("merchants.toml");
    let mut g = Game::new(&rules, &config);
    g.fill_purchase_deck();
    let full: Vec<u8> = market.cards.clone();
    assert_eq!(full.iter().map(|&c| u32::from(c)).sum::<u32>(), 23);
    // The deck in item order: Sword 0-3, Axe 4-6, Helmet 7-9, Shield
    // 10-12, Armour 13-14, Lantern 15-17, Mule 18-20, Raft 21-22. The
    // City's merchant (arms and armour) is dealt a Sword (pick 0), a
    // Lantern (pick 14 of the 22 left: goods, back to the deck), an Axe
    // (pick 3), an Armour (pick 11 of the 21 left) and a Sword (pick 0).
    // The Village's and the Tavern's merchants (goods and animals) are
    // then dealt five Swords each (pick 0), every one returned.
    let mut dice = ScriptedDice::new(&[]).with_picks(&[0, 14, 3, 11, 0]);
    let mut log = TraceLog::default();
    g.stock_merchants(&mut dice, &mut log);
    let city = g
        .merchant_at(space(&rules, "City"))
        .expect("the City's merchant");
    let names: Vec<&str> = g
        .market
        .stock_of(city)
        .iter()
        .map(|&i| rules.purchases[usize::from(i)].name.as_str())
        .collect();
    assert_eq!(names, ["Sword", "Axe", "Armour", "Sword"]);
    for at in ["Village", "Tavern"] {
        let m = g.merchant_at(space(&rules, at)).expect("merchant");
        assert!(g.market.stock_of(m).is_empty(), "{at}: swords returned");
    }
    // The stock left the deck; the returned cards are back in it.
    let pile = |name: &str| g.market.pile[item(&rules, name)];
    assert_eq!(pile("Sword"), 2);
    assert_eq!(pile("Axe"), 2);
    assert_eq!(pile("Armour"), 1);
    assert_eq!(pile("Lantern"), 3);
    assert_eq!(pile("Helmet"), 3);
    let returned = log
        .events
        .iter()
        .filter(|e| e.text.contains("not its sub-type: back to the deck"))
        .count();
    assert_eq!(returned, 11, "the Lantern and ten Swords");
    // Merchants not played: nobody is a merchant and nothing is dealt.
    let plain = crate::talisman_game::config(4);
    let mut g = Game::new(&rules, &plain);
    g.fill_purchase_deck();
    g.stock_merchants(&mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert_eq!(g.merchant_at(space(&rules, "City")), None);
    assert!(g.market.pile.iter().all(|&c| c == 0));
}

#[test]
fn a_merchants_stock_is_sold_only_on_its_space_and_an_item_with_no_card_left_is_out_of_stock_20_1()
{
    let rules = rules();
    let config = merchants_config();
    let sword = item(&rules, "Sword");
    // The deck empty but for nothing; the City's merchant has a Sword.
    let mut g = shopper(&rules, &config, "Warrior", "City", 3);
    g.market.pile = [0; 64];
    let city = g.merchant_at(space(&rules, "City")).expect("merchant");
    g.market.stock[city][0] = sword as u8;
    g.market.stock_len[city] = 1;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert!(holds(&g, 0, sword), "bought from the City's merchant");
    assert_eq!(g.players[0].hero.gold, 1);
    assert!(g.market.stock_of(city).is_empty());
    // On the Village the City's stock is not for sale, and with no card
    // left in the deck every item is out of stock: the chance is lost and
    // the gold kept [20:1].
    let mut g = shopper(&rules, &config, "Warrior", "Village", 3);
    g.market.pile = [0; 64];
    g.market.stock[city][0] = sword as u8;
    g.market.stock_len[city] = 1;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert_eq!(g.players[0].hero.gold, 3);
    assert_eq!(g.players[0].hero.objects().count(), 0);
    // One Sword back in the deck: the Village's shop sells it.
    g.market.pile[sword] = 1;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert!(holds(&g, 0, sword));
    assert_eq!(g.market.pile[sword], 0);
    assert_eq!(
        g.market.stock_of(city),
        [sword as u8],
        "the City's untouched"
    );
}

#[test]
fn a_merchant_on_a_space_without_a_shop_sells_its_stock_there() {
    let rules = rules();
    let config = merchants_config();
    let lantern = item(&rules, "Lantern");
    let mut g = shopper(&rules, &config, "Warrior", "Tavern", 1);
    g.market.pile = [0; 64];
    let tavern = g.merchant_at(space(&rules, "Tavern")).expect("merchant");
    g.market.stock[tavern][0] = lantern as u8;
    g.market.stock_len[tavern] = 1;
    // The Tavern's own table first: a 4, a gambler's win (1 gold); then
    // its merchant sells the Lantern (1 gold).
    let mut dice = ScriptedDice::new(&[4]);
    g.encounter_space(0, &mut dice, &mut TraceLog::default());
    assert!(dice.all_used());
    assert!(holds(&g, 0, lantern), "bought from the Tavern's merchant");
    assert_eq!(g.players[0].hero.gold, 1);
    assert!(g.market.stock_of(tavern).is_empty());
}

#[test]
fn damaged_armour_is_repaired_at_a_blacksmith_for_the_basic_item_of_its_kind_16_11() {
    // The worked example of 16:11 with the Enchanted Armour (a magic
    // object, save 3) in place of the Kite Shield: the Warrior on his last
    // life loses a combat and rolls a 1 for his armour save.
    let rules = rules();
    let config = merchants_config();
    let enchanted = rules
        .cards
        .iter()
        .position(|c| c.name == "Enchanted Armour")
        .expect("Enchanted Armour") as u16;
    let armour = item(&rules, "Armour");
    const BODY: usize = 1;
    let mut g = shopper(&rules, &config, "Warrior", "City", 0);
    g.players[0].hero.lives = 1;
    assert!(g.players[0].hero.take_object(&rules, enchanted));
    assert!(g.players[0].hero.wears(BODY));
    let mut dice = ScriptedDice::new(&[1]);
    let mut log = TraceLog::default();
    g.wound(0, Cause::Enemy, Source::None, true, &mut dice, &mut log);
    assert!(dice.all_used());
    // Instead of the wound that would kill him he discards the armour and
    // takes a damaged armour card of its kind.
    let hero = &g.players[0].hero;
    assert_eq!(hero.lives, 1);
    assert!(!hero.wears(BODY));
    assert!(!hero.objects().any(|o| o == enchanted));
    assert_eq!(hero.damaged, 1 << BODY);
    assert!(log.events.iter().any(|e| e.case == "Talisman 16:11"));
    // Later, healed, at the City's blacksmith with 1 gold: he pays and
    // trades the damaged card for a regular Armour from the Purchase
    // deck, not the Enchanted Armour.
    g.players[0].hero.lives = 4;
    g.players[0].hero.gold = 1;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    let hero = &g.players[0].hero;
    assert!(holds(&g, 0, armour));
    assert!(hero.wears(BODY));
    assert!(!hero.objects().any(|o| o == enchanted));
    assert_eq!((hero.damaged, hero.gold), (0, 0));
    assert_eq!(g.market.pile[armour], 1, "one of the 2 Armour cards left");
    // Damaged again, with no Armour left in the deck (nor anything else):
    // out of stock, the repair waits and the gold is kept [20:1].
    g.players[0].hero.lives = 1;
    let mut dice = ScriptedDice::new(&[1]);
    g.wound(
        0,
        Cause::Enemy,
        Source::None,
        true,
        &mut dice,
        &mut TraceLog::default(),
    );
    assert_eq!(g.players[0].hero.damaged, 1 << BODY);
    assert_eq!(
        g.market.pile[armour], 2,
        "the damaged Armour went back [20:2]"
    );
    g.market.pile = [0; 64];
    g.players[0].hero.lives = 4;
    g.players[0].hero.gold = 1;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert_eq!(g.players[0].hero.damaged, 1 << BODY);
    assert_eq!(g.players[0].hero.gold, 1);
    // Without the purchase economy the armour is simply lost (no card).
    let plain = crate::talisman_game::config(4);
    let mut g = shopper(&rules, &plain, "Warrior", "City", 0);
    g.players[0].hero.lives = 1;
    assert!(g.players[0].hero.take_object(&rules, enchanted));
    g.wound(
        0,
        Cause::Enemy,
        Source::None,
        true,
        &mut ScriptedDice::new(&[1]),
        &mut TraceLog::default(),
    );
    assert_eq!(g.players[0].hero.damaged, 0);
    assert!(!g.players[0].hero.wears(BODY));
}

#[test]
fn purchase_cards_go_back_to_their_pile_never_onto_a_space_20_2_20_3() {
    let rules = rules();
    let config = merchants_config();
    let sword = item(&rules, "Sword");
    let mut g = shopper(&rules, &config, "Warrior", "City", 2);
    g.market.pile[sword] = 0;
    let city = space(&rules, "City");
    g.place_card(city, PURCHASE_BASE + sword as u16);
    assert_eq!(g.pile_len[city], 0);
    assert_eq!(g.market.pile[sword], 1);
    // A second one back (its pile holds 4 cards).
    g.place_card(city, PURCHASE_BASE + sword as u16);
    assert_eq!(g.market.pile[sword], 2);
}

#[test]
fn every_purchase_card_is_in_the_deck_a_stock_or_a_characters_hands_at_the_end() {
    let model = load(&common::bundled("talisman/four-player-merchants.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let rules = model.rules();
    let market = rules.market.as_ref().expect("merchants.toml");
    let mut stocked = 0;
    let mut bought = 0;
    let mut from_stock = 0;
    for trial in 0..60 {
        let mut dice = Dice::for_trial(11, trial);
        let g = model.play(&mut dice, &mut barsoom::engine::model::NoTrace);
        let mut count = vec![0u32; rules.purchases.len()];
        for (i, &c) in g.market.pile[..rules.purchases.len()].iter().enumerate() {
            count[i] += u32::from(c);
        }
        for m in 0..market.merchants.len() {
            for &i in g.market.stock_of(m) {
                count[usize::from(i)] += 1;
                stocked += 1;
            }
        }
        for seat in 0..g.seats() {
            let p = &g.players[seat];
            if !p.alive {
                continue;
            }
            let h = &p.hero;
            let held = h
                .objects()
                .chain(h.packed[..usize::from(h.packed_len)].iter().copied())
                .chain(h.pulled[..usize::from(h.pulled_len)].iter().copied())
                .chain(h.animals[..usize::from(h.animals_len)].iter().copied());
            for c in held.filter(|&c| c >= PURCHASE_BASE) {
                count[usize::from(c - PURCHASE_BASE)] += 1;
                bought += 1;
            }
        }
        let cards: Vec<u32> = market.cards.iter().map(|&c| u32::from(c)).collect();
        assert_eq!(count, cards, "trial {trial}");
        // Sales from a merchant's stock are among all the sales.
        assert!(g.stats.purchases[1] <= g.stats.purchases[0]);
        from_stock += g.stats.purchases[1];
    }
    // Merchants kept stock to the end, characters held purchase cards,
    // and merchants did sell from their stock.
    assert!(
        stocked > 0 && bought > 0 && from_stock > 0,
        "{stocked} {bought} {from_stock}"
    );
}

#[test]
fn bad_merchant_data_gives_one_line_errors() {
    // (case, file edited ("" is the scenario), text replaced, replacement,
    // what the one-line error must mention).
    let cases: &[(&str, &str, &str, &str, &[&str])] = &[
        (
            "unknown sub-type",
            "data/merchants.toml",
            "sells = [\"arms\", \"armour\"]",
            "sells = [\"arms\", \"jewels\"]",
            &[
                "merchants.toml",
                "merchants[0].sells[1]",
                "unknown sub-type \"jewels\"",
            ],
        ),
        (
            "unknown item",
            "data/merchants.toml",
            "item = \"Lantern\"",
            "item = \"Spyglass\"",
            &[
                "merchants.toml",
                "deck[5].item",
                "unknown purchase item \"Spyglass\"",
            ],
        ),
        (
            "unknown space",
            "data/merchants.toml",
            "space = \"Tavern\"",
            "space = \"Bazaar\"",
            &["merchants.toml", "merchants[2].space", "unknown space"],
        ),
        (
            "no cards",
            "data/merchants.toml",
            "cards = 4",
            "cards = 0",
            &["merchants.toml", "deck[0].cards", "expected 1 to"],
        ),
    ];
    check_data_errors("talisman/four-player-merchants.toml", cases);
    // Merchants played with no merchants.toml.
    let dir = temp("missing");
    let scenario = common::copy_scenario_with_data(
        "talisman/four-player-merchants.toml",
        "talisman/data",
        &dir,
    );
    std::fs::remove_file(dir.join("data/merchants.toml")).expect("rm");
    let e = load(&scenario).err().expect("loads without merchants.toml");
    assert!(
        !e.contains('\n') && e.contains("tournament.merchants"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
