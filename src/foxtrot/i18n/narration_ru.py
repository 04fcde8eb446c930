"""Русские сообщения."""

MESSAGES: dict[str, str | dict[str, str]] = {
    "cards": {"one": "{n} карта", "few": "{n} карты", "many": "{n} карт"},
    "points": {"one": "{n} очко", "few": "{n} очка", "many": "{n} очков"},
    "deal_started": "Раздача {deal}: сдаёт {dealer}; открыта карта {card}; первым ходит {first}.",
    "plays": "{name} кладёт {card}.",
    "plays_and_takes": "{name} кладёт {card} и забирает карты со стола ({cards}).",
    "foxtrot": "{name} делает фокстрот картой {card}: +10.",
    "double_foxtrot": "{name} делает двойной фокстрот картой {card}: +20.",
    "takes_pile": "{name} забирает карты со стола ({cards}).",
    "redealt": "Запас сдаётся снова: по {cards} каждому; {stock}.",
    "stock_left": {
        "one": "в запасе осталась {n} карта",
        "few": "в запасе остались {n} карты",
        "many": "в запасе осталось {n} карт",
    },
    "deal_ended": "Раздача {deal} окончена.",
    "pile_discarded": "Карты, оставшиеся на столе, не идут никому ({cards}).",
    "pile_to_last_taker": "Карты, оставшиеся на столе, получает {name} ({cards}).",
    "undealt": "Не сдано: {cards}.",
    "score_line": (
        "{name}: {total:+d} (фокстроты {foxtrots}, двойные {double_foxtrots}, {cards},"
        " очки за карты {card_points:+d}, за большинство {most_cards}); всего {match_total}."
    ),
    "match_won": "{name} выигрывает матч, набрав {total}.",
    "hand_of": "Карты игрока {name}: {cards}",
    "stock_of": "Запас ({n}): {cards}",
    "deal_header": "Раздача {deal}",
    "no_deals": "В записи ещё нет ни одной раздачи.",
    "match_unfinished": "Матч не окончен; счёт: {totals}.",
}
