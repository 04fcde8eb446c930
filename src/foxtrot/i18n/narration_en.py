"""English messages."""

MESSAGES: dict[str, str | dict[str, str]] = {
    "cards": {"one": "{n} card", "other": "{n} cards"},
    "points": {"one": "{n} point", "other": "{n} points"},
    "deal_started": (
        "Deal {deal}: {dealer} deals; the upturned card is {card}; {first} plays first."
    ),
    "plays": "{name} plays {card}.",
    "plays_and_takes": "{name} plays {card} and takes the pile ({cards}).",
    "foxtrot": "{name} makes a foxtrot with {card}: +10.",
    "double_foxtrot": "{name} makes a double foxtrot with {card}: +20.",
    "takes_pile": "{name} takes the pile ({cards}).",
    "redealt": "The stock is dealt again: {cards} each; {stock}.",
    "stock_left": {
        "one": "{n} card is left in the stock",
        "other": "{n} cards are left in the stock",
    },
    "deal_ended": "Deal {deal} is over.",
    "pile_discarded": "The pile left on the table is discarded ({cards}).",
    "pile_to_last_taker": "The pile left on the table goes to {name} ({cards}).",
    "undealt": "Undealt: {cards}.",
    "score_line": (
        "{name}: {total:+d} (foxtrots {foxtrots}, double {double_foxtrots}, {cards},"
        " card points {card_points:+d}, most cards {most_cards}); match total {match_total}."
    ),
    "match_won": "{name} wins the match with {total}.",
    "hand_of": "{name}'s hand: {cards}",
    "stock_of": "Stock ({n}): {cards}",
    "deal_header": "Deal {deal}",
    "no_deals": "The record holds no deals yet.",
    "match_unfinished": "The match is not finished; totals: {totals}.",
}
