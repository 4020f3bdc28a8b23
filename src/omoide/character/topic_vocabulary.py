"""The shipped topic dictionary: common stream topics and game titles in ko, ja, zh and en.

Keyword notation (see :mod:`omoide.character.topics` for how each script is matched):

* Latin keywords match whole words, case-insensitively, plural ``s``/``es`` included;
  a trailing ``~`` lets the word continue (``cook~`` matches ``cooking``, ``cooked``).
* Hangul keywords must start a word; one-syllable keywords, and any ending in ``$``, must
  also end it or be followed by a particle (``롤을``, ``롤 하자``, but not ``롤러코스터``).
* Kana and Han keywords match anywhere: those scripts do not space words.
* ``exact_case`` keywords count only as written: ``LoL`` is the game, ``lol`` a laugh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class TopicEntry:
    """One topic: its canonical label, the words that name it, and what it belongs to."""

    topic: str
    keywords: tuple[str, ...]
    category: str | None = None
    """A broader topic this one implies: a game title implies ``games``."""
    exact_case: tuple[str, ...] = ()


def _category(topic: str, keywords: str) -> TopicEntry:
    return TopicEntry(topic, tuple(keywords.split("|")))


def _game(title: str, keywords: str, *, exact_case: str = "") -> TopicEntry:
    exact = tuple(exact_case.split("|")) if exact_case else ()
    return TopicEntry(title, tuple(keywords.split("|")), category="games", exact_case=exact)


CATEGORY_TOPICS: Final = (
    _category(
        "games",
        "game|gaming|gamer|video game|playstation|xbox|nintendo|ranked|게임|겜|랭겜|ゲーム|"
        "ゲーマー|游戏|遊戲|电玩",
    ),
    _category(
        "music",
        "music|song|singing|concert|album|playlist|karaoke|guitar|piano|음악|노래|콘서트|"
        "앨범|노래방|피아노|音楽|歌|カラオケ|ギター|ピアノ|アルバム|音乐|音樂|唱歌|演唱会|"
        "钢琴|吉他",
    ),
    _category(
        "food",
        "food|eat|ate|eating|lunch|dinner|breakfast|snack|cook~|ramen|pizza|sushi|burger|"
        "coffee|dessert|음식|밥|먹었|먹고|먹을|먹어|점심|저녁밥|아침밥|간식|요리|라면|치킨|"
        "피자|떡볶이|김치찌개|커피|디저트|ご飯|ごはん|食べ|ランチ|夕飯|朝ごはん|昼ごはん|"
        "料理|ラーメン|寿司|コーヒー|お菓子|吃饭|吃了|午饭|晚饭|早饭|美食|做饭|拉面|咖啡",
    ),
    _category(
        "work",
        "work|job|office|boss|overtime|coworker|shift|career|회사|출근|퇴근|야근|직장|업무|"
        "상사|알바|仕事|会社|残業|出勤|上司|バイト|職場|工作|上班|加班|下班|老板|同事",
    ),
    _category(
        "study",
        "study|studying|exam|homework|school|university|college|lecture|assignment|공부|시험|"
        "숙제|학교|대학|수업|과제|학원|勉強|試験|テスト|宿題|学校|大学|授業|受験|学习|學習|"
        "考试|考試|作业|上课|上課",
    ),
    _category(
        "sleep",
        "sleep|slept|sleepy|nap|insomnia|bedtime|잠|자고|잤|졸려|졸리|낮잠|불면|밤샜|寝|眠|"
        "睡眠|昼寝|徹夜|夜更かし|睡觉|睡覺|失眠|熬夜|午睡",
    ),
    _category(
        "weather",
        "weather|rain|raining|snow|snowing|freezing|sunny|storm|typhoon|humid|날씨|비|춥~|"
        "추워|더워|덥~|태풍|장마|눈이 와|天気|雨|雪|寒い|暑い|台風|晴れ|天气|下雨|下雪|好冷|"
        "好热|台风|晴天",
    ),
    _category(
        "anime",
        "anime|manga|cosplay|otaku|애니|애니메이션|만화|웹툰|코스프레|덕질|アニメ|漫画|"
        "マンガ|コスプレ|オタク|声優|动漫|動漫|动画|動畫|番剧|二次元|追番",
    ),
    _category(
        "health",
        "health|sick|flu|fever|headache|doctor|hospital|medicine|catching a cold|아파|아프|"
        "감기|병원|두통|약|건강|몸살|風邪|病院|頭痛|熱|薬|体調|健康|感冒|生病|医院|醫院|头疼|"
        "頭疼|发烧|發燒|吃药",
    ),
    _category(
        "family",
        "family|mom|mother|dad|father|sister|brother|parents|grandma|grandpa|grandmother|"
        "grandfather|sibling|가족|엄마|아빠|어머니|아버지|동생|언니|오빠|누나|형$|할머니|"
        "할아버지|부모님|家族|お母さん|お父さん|母|父|妹|弟|姉|両親|祖母|祖父|おばあちゃん|"
        "おじいちゃん|家人|妈妈|媽媽|爸爸|妹妹|弟弟|姐姐|哥哥|父母|奶奶|爷爷",
    ),
    _category(
        "pets",
        "pet|dog|puppy|cat|kitten|hamster|parrot|강아지|고양이|반려|댕댕이|냥이|햄스터|"
        "ペット|犬|猫|ハムスター|わんちゃん|宠物|寵物|狗|小猫",
    ),
    _category(
        "movies",
        "movie|film|cinema|netflix|drama|tv show|영화|드라마|넷플릭스|映画|ドラマ|电影|電影|"
        "电视剧|電視劇",
    ),
    _category(
        "sports",
        "sports|soccer|football|baseball|basketball|tennis|축구|야구|농구|스포츠|サッカー|"
        "野球|バスケ|スポーツ|足球|篮球|籃球|棒球",
    ),
    _category(
        "exercise",
        "gym|workout|exercise|running|jogging|yoga|fitness|운동|헬스|조깅|요가|러닝|ジム|"
        "筋トレ|運動|ランニング|ヨガ|健身|运动|跑步|瑜伽",
    ),
    _category(
        "travel",
        "travel|trip|vacation|holiday|flight|여행|휴가|비행기|旅行|旅|休暇|旅游|旅遊|度假",
    ),
    _category(
        "streaming",
        "stream|streaming|streamer|vtuber|twitch|youtube|방송|스트리머|버튜버|트위치|유튜브|"
        "치지직|配信|配信者|ブイチューバー|直播|主播|虚拟主播",
    ),
    _category(
        "art",
        "drawing|draw|painting|illustration|sketch|그림|일러스트|お絵描き|イラスト|絵|画画|"
        "畫畫|绘画|插画",
    ),
    _category(
        "books",
        "book|novel|reading|책|소설|독서|読書|小説|本を読|看书|讀書|读书|小说",
    ),
    _category(
        "shopping",
        "shopping|bought|online order|쇼핑|샀|구매|택배|買い物|買った|通販|购物|購物|买了|网购",
    ),
    _category(
        "programming",
        "coding|programming|developer|python|javascript|코딩|개발자|프로그래밍|"
        "プログラミング|エンジニア|编程|程序员|代码",
    ),
    _category(
        "love",
        "girlfriend|boyfriend|crush|dating|relationship|여자친구|남자친구|여친|남친|연애|"
        "데이트|썸$|彼女|彼氏|恋愛|デート|女朋友|男朋友|恋爱|戀愛|约会",
    ),
)

GAME_TOPICS: Final = (
    _game(
        "League of Legends",
        "League of Legends|롤$|리그 오브 레전드|리그오브레전드|リーグ・オブ・レジェンド|"
        "英雄联盟|英雄聯盟",
        exact_case="LoL",
    ),
    _game(
        "Teamfight Tactics",
        "Teamfight Tactics|롤토체스|롤체|云顶之弈",
        exact_case="TFT",
    ),
    _game(
        "Deadlock",
        "Deadlock|데드락|デッドロック",
    ),
    _game(
        "Valorant",
        "Valorant|발로란트|ヴァロラント|ヴァロ|无畏契约|無畏契約",
    ),
    _game(
        "Minecraft",
        "Minecraft|마인크래프트|마크$|マインクラフト|マイクラ|我的世界|麦块|當個創世神",
    ),
    _game(
        "Overwatch",
        "Overwatch|오버워치|옵치|オーバーウォッチ|守望先锋",
    ),
    _game(
        "Apex Legends",
        "Apex Legends|apex|에이펙스|에펙|エーペックス|Apex英雄",
    ),
    _game(
        "Fortnite",
        "Fortnite|포트나이트|フォートナイト|堡垒之夜",
    ),
    _game(
        "Genshin Impact",
        "Genshin Impact|Genshin|원신|原神",
    ),
    _game(
        "Honkai: Star Rail",
        "Star Rail|스타레일|スターレイル|星穹铁道",
    ),
    _game(
        "Pokémon",
        "Pokémon|Pokemon|포켓몬|ポケモン|宝可梦|寶可夢",
    ),
    _game(
        "Elden Ring",
        "Elden Ring|엘든 링|엘든링|エルデンリング|艾尔登法环",
    ),
    _game(
        "Final Fantasy",
        "Final Fantasy|파이널 판타지|파판|ファイナルファンタジー|最终幻想",
        exact_case="FF14|FFXIV",
    ),
    _game(
        "Monster Hunter",
        "Monster Hunter|몬스터 헌터|몬헌|モンハン|モンスターハンター|怪物猎人",
    ),
    _game(
        "Counter-Strike",
        "Counter-Strike|Counter Strike|CS2|CSGO|카스$|反恐精英",
    ),
    _game(
        "PUBG",
        "Battlegrounds|배그|배틀그라운드|绝地求生|吃鸡",
        exact_case="PUBG",
    ),
    _game(
        "Stardew Valley",
        "Stardew Valley|Stardew|스타듀밸리|스타듀 밸리|スターデューバレー|星露谷",
    ),
    _game(
        "Animal Crossing",
        "Animal Crossing|동물의 숲|동숲|どうぶつの森|あつ森|动物森友会|動物森友會|动森",
    ),
    _game(
        "The Legend of Zelda",
        "Zelda|젤다|ゼルダ|塞尔达|薩爾達",
    ),
    _game(
        "MapleStory",
        "MapleStory|Maple Story|메이플스토리|메이플|メイプルストーリー|冒险岛",
    ),
    _game(
        "Lost Ark",
        "Lost Ark|로스트아크|로아$|ロストアーク|失落的方舟",
    ),
    _game(
        "Splatoon",
        "Splatoon|스플래툰|スプラトゥーン|スプラ|斯普拉遁|喷射战士",
    ),
    _game(
        "StarCraft",
        "StarCraft|스타크래프트|スタークラフト|星际争霸",
    ),
    _game(
        "Dota 2",
        "Dota|도타|刀塔",
    ),
    _game(
        "Roblox",
        "Roblox|로블록스|ロブロックス|罗布乐思",
    ),
    _game(
        "Tetris",
        "Tetris|테트리스|テトリス|俄罗斯方块",
    ),
    _game(
        "Super Mario",
        "Mario|마리오|マリオ|马力欧|马里奥",
    ),
)

DEFAULT_VOCABULARY: Final = GAME_TOPICS + CATEGORY_TOPICS
"""Titles first: a message naming a title yields the title before its category."""
