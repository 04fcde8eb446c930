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
    "coach_review_good": "Раздача {deal}, ход {move}: {played} — {grade} ({reason}).",
    "coach_review_worse": (
        "Раздача {deal}, ход {move}: {played} — {grade}, {lost}; лучше {best} ({reason})."
    ),
    "coach_best_value": "{best}, ожидаемая разница {best_value:+d} против {value:+d}",
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
    # подсказка в сравнении со следующим по силе ходом
    "coach_alt_play": "ход {card}",
    "coach_alt_take": "взять стопку",
    "coach_hint_better": {
        "one": "{reason}; {alt} вместо этого — на {n} очко хуже: {alt_reason}",
        "few": "{reason}; {alt} вместо этого — на {n} очка хуже: {alt_reason}",
        "many": "{reason}; {alt} вместо этого — на {n} очков хуже: {alt_reason}",
    },
    "coach_hint_close": "{reason}; {alt} — почти так же хорошо: {alt_reason}",
    "coach_hint_better_same": {
        "one": "{reason}; {alt} делает то же сейчас, но потом на {n} очко хуже",
        "few": "{reason}; {alt} делает то же сейчас, но потом на {n} очка хуже",
        "many": "{reason}; {alt} делает то же сейчас, но потом на {n} очков хуже",
    },
    "coach_hint_close_same": "{reason}; {alt} — почти так же хорошо",
    # итог раздачи
    "coach_points": {"one": "{n} очко", "few": "{n} очка", "many": "{n} очков"},
    "coach_others": {
        "one": "{points:+d} у соперника",
        "few": "{points:+d} в среднем у остальных",
        "many": "{points:+d} в среднем у остальных",
    },
    "coach_verdict_won": (
        "Раздача {deal} выиграна: {score:+d} против {others}"
        " (разница {margin:+d}); ваши ходы стоили {lost} ожидаемой разницы."
    ),
    "coach_verdict_choices": (
        "Раздача {deal} проиграна: {score:+d} против {others}"
        " (разница {margin:+d}); ваши ходы стоили {lost} ожидаемой разницы."
    ),
    "coach_verdict_cards": (
        "Раздача {deal} проиграна: {score:+d} против {others}"
        " (разница {margin:+d}), но ваши ходы стоили лишь {lost} ожидаемой разницы:"
        " раздачу решили карты{tempo}."
    ),
    "coach_verdict_tempo": (
        " и темп (при взятии в любой момент стопку берёт тот, перед кем она лежит, и кто"
        " начинает стопки, почти не набирает очков: вы начали {started} из {piles})"
    ),
    "coach_verdict_costliest": (
        "Самый дорогой ход: ход {move}, {played} ({value:+d}); лучше было {best} ({best_value:+d})."
    ),
    "coach_verdict_closest": (
        "Самый важный выбор: ход {move}, {best} ({best_value:+d}), а не {second}"
        " ({second_value:+d})."
    ),
    "coach_verdict_forced": "Все ходы были вынужденными: выбирать было не из чего.",
}
