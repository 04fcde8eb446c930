"""Українські повідомлення."""

MESSAGES: dict[str, str | dict[str, str]] = {
    "cards": {"one": "{n} карта", "few": "{n} карти", "many": "{n} карт"},
    "points": {"one": "{n} очко", "few": "{n} очки", "many": "{n} очок"},
    "deal_started": "Роздача {deal}: здає {dealer}; відкрита карта {card}; першим ходить {first}.",
    "plays": "{name} кладе {card}.",
    "plays_and_takes": "{name} кладе {card} і забирає карти зі столу ({cards}).",
    "foxtrot": "{name} робить фокстрот картою {card}: +10.",
    "double_foxtrot": "{name} робить подвійний фокстрот картою {card}: +20.",
    "takes_pile": "{name} забирає карти зі столу ({cards}).",
    "redealt": "Запас роздається знову: по {cards} кожному; {stock}.",
    "stock_left": {
        "one": "у запасі лишилася {n} карта",
        "few": "у запасі лишилися {n} карти",
        "many": "у запасі лишилося {n} карт",
    },
    "deal_ended": "Роздачу {deal} закінчено.",
    "pile_discarded": "Карти, що лишилися на столі, не дістаються нікому ({cards}).",
    "pile_to_last_taker": "Карти, що лишилися на столі, отримує {name} ({cards}).",
    "undealt": "Не роздано: {cards}.",
    "score_line": (
        "{name}: {total:+d} (фокстроти {foxtrots}, подвійні {double_foxtrots}, {cards},"
        " очки за карти {card_points:+d}, за більшість {most_cards}); загалом {match_total}."
    ),
    "match_won": "{name} виграє матч, набравши {total}.",
    "hand_of": "Карти гравця {name}: {cards}",
    "stock_of": "Запас ({n}): {cards}",
    "deal_header": "Роздача {deal}",
    "no_deals": "У записі ще немає жодної роздачі.",
    "match_unfinished": "Матч не закінчено; рахунок: {totals}.",
}
