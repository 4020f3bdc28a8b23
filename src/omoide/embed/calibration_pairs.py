"""The built-in calibration set: facts about a person, in Korean, Japanese, Chinese, English.

``PARAPHRASE_PAIRS`` state the same fact twice in different words (a duplicate to merge);
``DIFFERENT_FACT_PAIRS`` state two different facts in a similar form (never to merge).
Changing either list changes :data:`omoide.embed.calibration.CALIBRATION_SET_ID`, which
invalidates cached thresholds.
"""

from __future__ import annotations

PARAPHRASE_PAIRS: tuple[tuple[str, str], ...] = (
    # English
    ("I love League of Legends", "League of Legends is my favourite game"),
    ("I have two cats", "There are two cats living with me"),
    ("My birthday is on March 3rd", "I was born on the third of March"),
    ("I work as a nurse", "My job is nursing"),
    ("I can't eat spicy food", "Spicy dishes are too much for me"),
    ("I'm learning Japanese", "I'm studying the Japanese language"),
    ("I moved to Busan last year", "Last year I relocated to Busan"),
    ("My favourite colour is blue", "Blue is the colour I like most"),
    # Korean
    ("나 롤 좋아해", "롤 게임 정말 좋아해요"),
    ("저는 고양이를 두 마리 키워요", "우리 집에 고양이가 두 마리 있어요"),
    ("제 생일은 3월 3일이에요", "저 3월 3일에 태어났어요"),
    ("저는 간호사로 일해요", "제 직업은 간호사예요"),
    ("매운 음식을 못 먹어요", "저는 매운 걸 잘 못 먹어요"),
    ("요즘 일본어 배우고 있어요", "일본어 공부를 하는 중이에요"),
    ("작년에 부산으로 이사했어요", "작년에 부산으로 이사 왔어요"),
    ("제일 좋아하는 색은 파란색이에요", "파란색을 가장 좋아해요"),
    # Japanese
    ("私はラーメンが大好きです", "ラーメンが一番好きな食べ物です"),
    ("猫を二匹飼っています", "うちには猫が二匹います"),
    ("誕生日は3月3日です", "3月3日生まれです"),
    ("看護師として働いています", "仕事は看護師です"),
    ("辛い食べ物が苦手です", "辛いものは食べられません"),
    ("今、韓国語を勉強しています", "韓国語を習っているところです"),
    ("去年、大阪に引っ越しました", "昨年大阪へ引っ越してきました"),
    ("好きな色は青です", "青色が一番好きです"),
    # Chinese
    ("我很喜欢玩英雄联盟", "英雄联盟是我最喜欢的游戏"),
    ("我养了两只猫", "我家里有两只猫"),
    ("我的生日是三月三号", "我出生在三月三日"),
    ("我是一名护士", "我的工作是当护士"),
    ("我不能吃辣", "我吃不了辣的东西"),
    ("我正在学日语", "我最近在学习日语"),
    ("我去年搬到了上海", "去年我搬家到上海了"),
    ("我最喜欢的颜色是蓝色", "蓝色是我最喜欢的颜色"),
)

DIFFERENT_FACT_PAIRS: tuple[tuple[str, str], ...] = (
    # English
    ("I like cats", "I like dogs"),
    ("I live in Seoul", "I work in Seoul"),
    ("My birthday is on March 3rd", "My birthday is on October 21st"),
    ("I work as a nurse", "I work as a teacher"),
    ("I love spicy food", "I hate spicy food"),
    ("I'm learning Japanese", "I'm learning the guitar"),
    ("My sister lives in Busan", "My brother lives in Busan"),
    ("My favourite colour is blue", "My favourite colour is red"),
    # Korean
    ("나 고양이 좋아해", "나 강아지 좋아해"),
    ("저는 서울에 살아요", "저는 서울에서 일해요"),
    ("제 생일은 3월 3일이에요", "제 생일은 10월 21일이에요"),
    ("저는 간호사로 일해요", "저는 선생님으로 일해요"),
    ("매운 음식을 좋아해요", "단 음식을 좋아해요"),
    ("요즘 일본어 배우고 있어요", "요즘 기타 배우고 있어요"),
    ("언니가 부산에 살아요", "남동생이 부산에 살아요"),
    ("커피를 매일 마셔요", "커피를 전혀 안 마셔요"),
    # Japanese
    ("猫が好きです", "犬が好きです"),
    ("東京に住んでいます", "東京で働いています"),
    ("誕生日は3月3日です", "誕生日は10月21日です"),
    ("看護師として働いています", "教師として働いています"),
    ("辛い食べ物が好きです", "甘い食べ物が好きです"),
    ("韓国語を勉強しています", "ギターを練習しています"),
    ("姉が大阪に住んでいます", "弟が大阪に住んでいます"),
    ("朝はコーヒーを飲みます", "朝は紅茶を飲みます"),
    # Chinese
    ("我喜欢猫", "我喜欢狗"),
    ("我住在北京", "我在北京工作"),
    ("我的生日是三月三号", "我的生日是十月二十一号"),
    ("我是一名护士", "我是一名老师"),
    ("我喜欢吃辣", "我喜欢吃甜的"),
    ("我正在学日语", "我正在学吉他"),
    ("我姐姐住在上海", "我弟弟住在上海"),
    ("我每天早上跑步", "我每天晚上游泳"),
)
