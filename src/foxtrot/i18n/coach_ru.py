"""Русские сообщения подсказчика: подсказки, подсчёт карт, разбор раздачи."""

MESSAGES: dict[str, str | dict[str, str]] = {
    # подсчёт карт
    "coach_unseen": "Ещё не вышли: {items}",
    "coach_unseen_tens": {"one": "{n} десятка", "few": "{n} десятки", "many": "{n} десяток"},
    "coach_unseen_jacks": {"one": "{n} валет", "few": "{n} валета", "many": "{n} валетов"},
    "coach_unseen_aces": {"one": "{n} туз", "few": "{n} туза", "many": "{n} тузов"},
    "coach_unseen_queens": "{n} {card}",
    "coach_stock": {
        "one": "В запасе: {n} карта",
        "few": "В запасе: {n} карты",
        "many": "В запасе: {n} карт",
    },
    "coach_risk": (
        "Следующий игрок ({name}) может ответить фокстротом на одиночную карту: {items}"
    ),
    "coach_risk_item": "{rank} — {pct}%",
    # чем хорош ход
    "coach_double_foxtrot": "делает двойной фокстрот: {total:+d}",
    "coach_foxtrot": "делает фокстрот: {total:+d}",
    "coach_takes_points": {
        "one": "забирает {n} очко",
        "few": "забирает {n} очка",
        "many": "забирает {n} очков",
    },
    "coach_takes_cards": {
        "one": "забирает {n} карту",
        "few": "забирает {n} карты",
        "many": "забирает {n} карт",
    },
    "coach_takes_loss": {
        "one": "забирает {n} карту, хоть там и {card}: {points:+d}",
        "few": "забирает {n} карты, хоть там и {card}: {points:+d}",
        "many": "забирает {n} карт, хоть там и {card}: {points:+d}",
    },
    "coach_takes_lone": (
        "забирает одиночную карту {card}: следующему игроку придётся начинать новую стопку"
    ),
    "coach_avoids": "не берёт {card} из стопки",
    "coach_poisons": "подкладывает {card} в стопку: -20 тому, кто её возьмёт",
    "coach_lone_safe": (
        "оставляет одиночную карту {card}: следующему игроку нечем сделать на неё фокстрот"
    ),
    "coach_lone_risk": (
        "оставляет одиночную карту {card}: следующий игрок сделает на неё фокстрот"
        " с вероятностью {pct}%"
    ),
    "coach_no_lone": "не оставляет одиночной карты для фокстрота",
    "coach_nothing_to_take": "стопка остаётся маленькой: в ней нечего брать",
    "coach_lays": {
        "one": "кладёт {card}: в стопке {n} карта, очки: {points:+d}",
        "few": "кладёт {card}: в стопке {n} карты, очки: {points:+d}",
        "many": "кладёт {card}: в стопке {n} карт, очки: {points:+d}",
    },
    "coach_only_move": "единственный возможный ход: {reason}",
    "coach_take": "взять стопку",
    # разбор раздачи
    "coach_grade_good": "хороший ход",
    "coach_grade_inaccuracy": "неточность",
    "coach_grade_mistake": "ошибка",
    "coach_review_good": "Игра {deal}, ход {move}: {played} — {grade} ({reason}).",
    "coach_review_worse": (
        "Игра {deal}, ход {move}: {played} — {grade}, {lost}; лучше {best} ({reason})."
    ),
    "coach_lost": {"one": "-{n} очко", "few": "-{n} очка", "many": "-{n} очков"},
    "coach_summary": "{good}, {inaccuracies}, {mistakes}; {lost}",
    "coach_n_good": {
        "one": "{n} хороший ход",
        "few": "{n} хороших хода",
        "many": "{n} хороших ходов",
    },
    "coach_n_inaccuracies": {
        "one": "{n} неточность",
        "few": "{n} неточности",
        "many": "{n} неточностей",
    },
    "coach_n_mistakes": {"one": "{n} ошибка", "few": "{n} ошибки", "many": "{n} ошибок"},
    "coach_total_lost": {
        "one": "всего потеряно {n} очко",
        "few": "всего потеряно {n} очка",
        "many": "всего потеряно {n} очков",
    },
}
