/* posekit page: every text the page shows, in Japanese and English.
 * Elements carry data-i18n="key" (their text) and the script sets the text of
 * the chosen language; JavaScript messages go through PK_I18N.t(key, args).
 * MMD's own words: モーション, ポーズ, モデル, ボーン, モーフ, キーフレーム,
 * サイジング, カメラ. */
(function () {
  'use strict';
  var S = {
    skip: ['操作へ移動', 'Skip to the steps'],
    tagline: ['MMD のモーションとポーズを、ブラウザの中だけで確認・サイジング・編集します。ファイルはどこにも送られません。',
      'Check, size and edit MikuMikuDance motions and poses inside your browser. Your files are never uploaded.'],
    'files.h': ['ファイル', 'Files'],
    'files.drop': ['モーション (VMD)、ポーズ (VPD)、モデル (PMX/PMD)、ルール (YAML) をここにドロップ',
      'Drop motions (VMD), poses (VPD), models (PMX/PMD) and rules (YAML) here'],
    'files.pick': ['ファイルを選ぶ…', 'Choose files…'],
    'files.empty': ['まだファイルがありません。', 'No files yet.'],
    'files.remove': ['削除', 'Remove'],
    'files.download': ['保存', 'Save'],
    'files.bytes': ['({0} バイト)', '({0} bytes)'],
    'files.reading': ['読み込み中…', 'reading…'],
    'files.made': ['このページで作成', 'made here'],
    'steps.h': ['操作', 'Steps'],
    'op.check': ['チェック', 'Check'],
    'op.size': ['サイジング', 'Size'],
    'op.overlay': ['ポーズを重ねる', 'Overlay a pose'],
    'op.diff': ['比較', 'Compare'],
    'op.reduce': ['キー削減', 'Reduce keys'],
    'op.bake': ['全フレームにキー', 'Bake'],
    'op.convert': ['変換 VPD↔VMD', 'Convert VPD↔VMD'],
    'op.mirror': ['左右反転', 'Mirror'],
    'op.rename': ['名前の置換', 'Rename'],
    'op.see': ['見る', 'See'],
    'op.job': ['ジョブ', 'Job'],
    'job.flat': ['このページでは、読み込んだファイルはすべて一つのフォルダーに入ります。ジョブのパスはフォルダーなしのファイル名で書いてください（ダンス/dance.vmd ではなく dance.vmd）。',
      'Here every file you add is in one folder: name the job\'s files without folders (dance.vmd, not dances/dance.vmd).'],
    'job.what': ['ジョブファイル (YAML) の手順をまとめて実行します。ジョブが使うファイルも一緒に読み込んでください（名前で探します）。',
      'Run a job file\'s steps (YAML) in one go. Add the files the job names too: it finds them by name.'],
    'f.job': ['ジョブ', 'Job'],
    'go.job': ['実行する', 'Run'],
    'run.differ.diff': ['完了しました：違いがあります。', 'Done: they differ.'],
    'run.differ.check': ['完了しました：モデルにない名前があります。', 'Done: the model lacks some names.'],
    'run.differ.checkBodies': ['完了しました：どの組み込み体型にもそのボーンがありません。', 'Done: no built-in body has any of its bones.'],
    'files.added': ['{0} を読み込みました', '{0} read'],
    'files.notRead': ['{0} は読み込めませんでした', '{0} could not be read'],
    'check.what': ['モーションがモデルに合うか：モデルにないボーン・モーフ、名前の近いもの、物理で動くボーン。',
      'Does a motion fit a model: the bones and morphs the model lacks, near misses, bones physics drives.'],
    'check.suggest': ['名前の置換ルールを提案する (YAML)', 'Suggest a rename rules file (YAML)'],
    'size.what': ['ダンスを元のモデルから自分のモデルへサイジングします（体格・腕の角度・手の接触）。カメラモーションがあれば一緒に合わせます。',
      'Size (retarget) a dance from the model it was made for to your model (proportions, arm stance, hand contacts), and its camera if you dropped one.'],
    'size.fingers': ['指もサイジングする', 'Size the fingers too'],
    'overlay.what': ['手のポーズ (VPD) を、選んだボーンとフレームに重ねます。前後はフェードでつなぎます。',
      'Lay a hand pose (VPD) over the chosen bones and frames, faded in and out.'],
    'overlay.bonesHint': ['名前・ワイルドカード・グループ (@hand_R 右手、@fingers_L 左手の指、@mouth 口…) をカンマで区切って',
      'Names, wildcards or groups (@hand_R right hand, @fingers_L left fingers, @mouth ...), separated by commas'],
    'diff.what': ['2 つのポーズ・モーションの違いをボーンごとに角度で比べます。', 'How far apart two poses or motions are, bone by bone, in degrees.'],
    'diff.all': ['同じボーンも表に出す', 'List equal bones too'],
    'reduce.what': ['許容範囲の中でキーフレームをできるだけ減らします（MMD の補間曲線で合わせます）。',
      'The fewest keyframes within tolerances (MMD curves fitted).'],
    'bake.what': ['すべてのフレームにキーを打ちます（ベイク）。', 'A keyframe at every frame (bake).'],
    'convert.what': ['ポーズ (VPD) をモーション (VMD) に、モーションのあるフレームをポーズに変換します。',
      'A pose (VPD) to a motion (VMD), or a motion\'s frame to a pose.'],
    'mirror.what': ['左右を入れ替えます（名前と動き）。', 'Swap left and right (names and movement).'],
    'rename.what': ['ルールファイル (YAML) でボーン名・モーフ名を置き換えます。', 'Rename bones and morphs by a rules file (YAML).'],
    'rename.reverse': ['逆向きに (元に戻す)', 'Reverse (undo the rules)'],
    'see.what': ['ポーズ、またはモーションのあるフレームを、モデルの骨格で描きます（IK・付与を含め MMD と同じ計算）。',
      'Draw a pose, or a motion at a frame, on a model\'s skeleton (IK and append as MMD computes them).'],
    'f.motionOrPose': ['モーション / ポーズ', 'Motion / pose'],
    'f.motion': ['モーション', 'Motion'],
    'f.model': ['モデル', 'Model'],
    'f.modelDraw': ['モデル (図に重ねて描く)', 'Model (to draw the poses)'],
    'f.noModel': ['（なし）', '(none)'],
    'f.dance': ['ダンス (モーション)', 'Dance (motion)'],
    'f.from': ['元のモデル', 'Made for (model)'],
    'f.to': ['自分のモデル', 'Your model'],
    'f.camera': ['カメラモーション', 'Camera motion'],
    'f.noCamera': ['（なし）', '(none)'],
    'f.base': ['元のモーション / ポーズ', 'Base motion / pose'],
    'f.pose': ['重ねるポーズ', 'Pose to lay over'],
    'f.bones': ['ボーン', 'Bones'],
    'f.frames': ['フレーム', 'Frames'],
    'f.framesHint': ['例: 30-60、45、all', 'e.g. 30-60, 45, all'],
    'f.frame': ['フレーム', 'Frame'],
    'f.fade': ['フェード (フレーム)', 'Fade (frames)'],
    'f.mode': ['重ね方', 'Mode'],
    'mode.replace': ['置き換え', 'replace'],
    'mode.add': ['加算', 'add'],
    'f.a': ['A', 'A'],
    'f.b': ['B', 'B'],
    'f.maxDeg': ['角度の許容 (度)', 'Angle tolerance (deg)'],
    'f.maxPos': ['位置の許容', 'Position tolerance'],
    'f.step': ['間隔 (フレーム)', 'Every (frames)'],
    'f.rules': ['ルール', 'Rules'],
    'f.rulesOpt': ['ルール (任意)', 'Rules (optional)'],
    'f.noRules': ['（標準）', '(built in)'],
    'f.vs': ['並べて比べる', 'Compare with'],
    'f.noVs': ['（なし）', '(none)'],
    'f.vsModel': ['比べる側のモデル', 'Its model'],
    'f.sameModel': ['（同じモデル）', '(the same model)'],
    'f.view': ['向き', 'View'],
    'view.front': ['正面', 'front'],
    'view.side': ['横', 'side'],
    'view.top': ['上', 'top'],
    'view.all': ['3 方向', 'all three'],
    'go.check': ['チェックする', 'Check'],
    'go.size': ['サイジングする', 'Size'],
    'go.overlay': ['重ねる', 'Overlay'],
    'go.diff': ['比較する', 'Compare'],
    'go.reduce': ['キーを減らす', 'Reduce'],
    'go.bake': ['ベイクする', 'Bake'],
    'go.convert': ['変換する', 'Convert'],
    'go.mirror': ['左右反転する', 'Mirror'],
    'go.rename': ['置き換える', 'Rename'],
    'go.see': ['描く', 'Draw'],
    'result.h': ['結果', 'Result'],
    'result.none': ['操作を選んで実行すると、ここに結果が出ます。', 'Choose a step and run it: the result shows here.'],
    cancel: ['中止', 'Cancel'],
    foot: ['posekit はすべての処理をこのページの中（WebAssembly）で行います。オフラインでも動きます。',
      'posekit does all its work inside this page (WebAssembly), offline too.'],
    builtin: ['組み込みの体型', 'built-in body'],
    'builtin.auto': ['@auto（ダンスから自動で選ぶ）', '@auto (chosen from the dance)'],
    'builtin.classic': ['@classic（旧来の標準ボーン）', '@classic (the classic bones)'],
    'builtin.standard': ['@standard（準標準ボーン）', '@standard (semi-standard bones)'],
    'kind.motion': ['モーション', 'motion'],
    'kind.camera': ['カメラモーション', 'camera motion'],
    'kind.pose': ['ポーズ', 'pose'],
    'kind.model': ['モデル', 'model'],
    'kind.rules': ['ルール', 'rules'],
    'kind.body': ['体型 (body)', 'body'],
    'kind.job': ['ジョブ', 'job'],
    'kind.bad': ['読めないファイル', 'cannot be read'],
    'kind.other': ['不明', 'unknown'],
    'sum.frames': ['フレーム {0}–{1}', 'frames {0}–{1}'],
    'sum.boneKeys': ['ボーン {0} 本（キー {1}）', '{1} bone keys ({0} bones)'],
    'sum.morphKeys': ['モーフ {0} 個（キー {1}）', '{1} morph keys ({0} morphs)'],
    'sum.cameraKeys': ['カメラ キー {0}', '{0} camera keys'],
    'sum.bones': ['ボーン {0}', '{0} bones'],
    'sum.morphs': ['モーフ {0}', '{0} morphs'],
    'sum.forModel': ['モデル「{0}」用', 'for "{0}"'],
    'sum.modelName': ['「{0}」', '"{0}"'],
    'sum.warning': ['警告 {0}', '{0} warning'],
    'sum.warnings': ['警告 {0}', '{0} warnings'],
    'run.working': ['{0} を実行中…', 'Running {0}…'],
    'run.ok': ['完了しました。', 'Done.'],
    'run.failed': ['エラーで止まりました（何も書き出していません）。', 'Stopped on an error (nothing was written).'],
    'run.cancelled': ['中止しました。', 'Cancelled.'],
    'run.engineError': ['エンジンが動きませんでした: {0}', 'The engine failed: {0}'],
    'run.command': ['コマンド', 'Command'],
    'run.outputs': ['出力ファイル', 'Output files'],
    'run.seeBeforeAfter': ['前後を並べて見る', 'See before and after'],
    'need.files': ['必要なファイルを選んでください: {0}', 'Choose the files first: {0}'],
    'check.fits': ['このモデルに必要なボーン・モーフはすべてあります。', 'The model has every bone and morph the motion moves.'],
    'check.summary': ['キーのあるボーン {0} 本のうち、モデルにないもの {1}（動くもの {2}）。モーフ: {3} 個中 {4}。', '{0} bones keyed, {1} missing on the model ({2} moving); morphs: {4} of {3} missing.'],
    'check.name': ['名前', 'name'],
    'check.kind': ['種類', 'kind'],
    'check.bone': ['ボーン', 'bone'],
    'check.morph': ['モーフ', 'morph'],
    'check.st.missing': ['モデルにない', 'not on the model'],
    'check.st.cut': ['切れた名前で一致', 'matches a cut name'],
    'check.st.physics': ['物理で動くボーン', 'driven by physics'],
    'check.st.unusable': ['使えないキー {0}', '{0} unusable keys'],
    'check.st.fold': ['サイジングで {0} に畳み込み', 'sizing folds it into {0}'],
    'check.near': ['近い名前: {0}', 'near miss: {0}'],
    'check.keys': ['キー', 'keys'],
    'check.bodyBones': ['ボーン（体型にある / キーのある）', 'bones (the body has / keyed)'],
    'check.overlap': ['重なり', 'overlap'],
    'check.moving': ['動くキー', 'moving keys'],
    'check.status': ['状態', 'status'],
    'check.modelName': ['モデル側', 'on the model'],
    'check.problems': ['問題のある名前', 'Names with a problem'],
    'check.rulesFile': ['提案された置換ルール', 'The suggested rename rules'],
    'diff.summary': ['ボーン {0} 本中 {1} 本が違います（最大 {2}°）。モーフ {3} 個中 {4} 個。', '{1} of {0} bones differ (largest {2}°); {4} of {3} morphs differ.'],
    'diff.same': ['違いはありません。', 'No differences.'],
    'diff.bone': ['ボーン', 'bone'],
    'diff.deg': ['角度 (度)', 'angle (deg)'],
    'diff.pos': ['位置', 'position'],
    'diff.at': ['最大のフレーム', 'at frame'],
    'diff.mean': ['平均 (度)', 'mean (deg)'],
    'diff.morph': ['モーフ', 'morph'],
    'diff.delta': ['差', 'delta'],
    'diff.onlyIn': ['片方だけ', 'only in'],
    'size.arm': ['腕の長さ {0} → {1}', 'arm length {0} → {1}'],
    'size.leg': ['脚の長さ {0} → {1}', 'leg length {0} → {1}'],
    'size.contacts': ['手の接触 {0} 箇所: ずれ {1}% → {2}%（腕の長さ比）', '{0} hand contacts: gap {1}% → {2}% of the arm'],
    'size.camera': ['カメラモーション', 'The camera'],
    'size.dancer': ['ダンサー {0}', 'Dancer {0}'],
    'size.add': ['＋ ダンサーを追加', '+ Add a dancer'],
    'size.addHint': ['複数のダンサーを一緒にサイジング：並びの間隔を保ち、ダンサー同士の手の接触も合わせます。',
      'Size several dancers together: their formation keeps its spacing, and hands held between dancers stay held.'],
    'size.remove': ['このダンサーを外す', 'Remove this dancer'],
    'size.removed': ['ダンサー {0} を外しました', 'Dancer {0} removed'],
    'size.added': ['ダンサー {0} を追加しました', 'Dancer {0} added'],
    'f.scale': ['移動の倍率 (全員共通)', 'Translation scale (shared)'],
    'f.scaleN': ['倍率', 'Scale'],
    'scale.mean': ['脚の長さの比の平均', 'the mean of the leg ratios'],
    'scale.own': ['各自の脚の比 (own)', 'each its own (own)'],
    'scale.set': ['数値で指定', 'a number'],
    'size.scaleHint': ['全員の前後左右の移動を同じ倍率にすると、並びの間隔が保たれます。',
      'One scale for every dancer\'s moves across the floor keeps the formation\'s spacing.'],
    'size.cameraOne': ['カメラは 1 人のダンサーとだけサイジングできます（ダンサーが 1 人のとき）。',
      'A camera is sized with one dancer only (when there is one dancer).'],
    'size.dancers': ['ダンサー', 'Dancers'],
    'size.seeDancer': ['ダンサー {0} の前後を並べて見る', 'See dancer {0} before and after'],
    'dancers.n': ['#', '#'],
    'dancers.dance': ['ダンス', 'dance'],
    'dancers.from': ['元', 'made for'],
    'dancers.to': ['サイジング先', 'sized to'],
    'dancers.leg': ['脚の長さ', 'leg length'],
    'dancers.out': ['出力', 'output'],
    'dancers.scale.mean': ['移動の倍率 {0}（全員共通：脚の比 {1}〜{2} の平均）', 'translation scale {0}, shared (the mean of the leg ratios {1} to {2})'],
    'dancers.scale.given': ['移動の倍率 {0}（全員共通：指定）', 'translation scale {0}, shared (given)'],
    'dancers.scale.own': ['移動の倍率は各自の脚の比（{1}〜{2}）。間隔は平均 {0} で測ります', 'each dancer its own translation scale ({1} to {2}); the spacing measured against their mean {0}'],
    'dancers.spacing': ['並びの間隔のずれ：最大 {0}%、平均 {1}%（脚の長さ {2} に対して、フレーム {3}–{4}、{5} 組）', 'spacing error: at most {0}%, mean {1}% of the mean leg ({2} units), frames {3}–{4}, pairs of dancers: {5}'],
    'dancers.worst': ['最大はダンサー {0} と {1}、フレーム {2}：距離 {3}（本来 {4}）', 'worst: dancers {0} and {1} at frame {2}, {3} units apart for {4}'],
    'dancers.goal.ok': ['目標 2% 以内', 'within the 2% goal'],
    'dancers.goal.over': ['目標 2% を超えています', 'over the 2% goal'],
    'dancers.noPartners': ['元のモデルでは、ダンサー同士の手の接触はありません。', 'No hand touches another dancer on the source models.'],
    'dancers.partners': ['ダンサー同士の接触 {0} 箇所：ずれ {1}% → {2}%（平均、p95 {3}% → {4}%、腕の長さ比）', 'contacts between dancers: {0}; gap error {1}% → {2}% of the arm (mean; p95 {3}% → {4}%)'],
    'dancers.outOfReach': ['手が届かないフレーム {0}', 'frames out of reach: {0}'],
    'partners.dancer': ['ダンサー', 'dancer'],
    'partners.hand': ['手', 'hand'],
    'partners.partner': ['相手', 'partner'],
    'partners.with': ['触れる所', 'touches'],
    'partners.frames': ['フレーム', 'frames'],
    'partners.before': ['ずれ 前 (%)', 'gap before (%)'],
    'partners.after': ['ずれ 後 (%)', 'gap after (%)'],
    'part.left hand': ['左手', 'left hand'],
    'part.right hand': ['右手', 'right hand'],
    'part.head': ['頭', 'head'],
    'part.chest': ['胸', 'chest'],
    'part.belly': ['お腹', 'belly'],
    'part.hips': ['腰', 'hips'],
    'part.left thigh': ['左もも', 'left thigh'],
    'part.right thigh': ['右もも', 'right thigh'],
    'part.left shin': ['左すね', 'left shin'],
    'part.right shin': ['右すね', 'right shin'],
    'hand.left': ['左手', 'left'],
    'hand.right': ['右手', 'right'],
    'size.dance': ['ダンス', 'The dance'],
    'see.play': ['▶ 再生', '▶ Play'],
    'see.stop': ['■ 停止', '■ Stop'],
  };
  var lang = 'ja';
  function pick(key) {
    var e = S[key];
    if (!e) return key;
    return lang === 'en' ? e[1] : e[0];
  }
  function t(key, args) {
    var s = pick(key);
    if (args) s = s.replace(/\{(\d+)\}/g, function (m, i) { return args[+i] === undefined ? m : String(args[+i]); });
    return s;
  }
  /* an element's text: its key, with the arguments of data-i18n-args (a
   * JSON list) where the text has {0}, {1}... */
  function apply(root) {
    var els = (root || document).querySelectorAll('[data-i18n]');
    for (var i = 0; i < els.length; i++) {
      var a = els[i].getAttribute('data-i18n-args');
      els[i].textContent = t(els[i].getAttribute('data-i18n'), a ? JSON.parse(a) : null);
    }
  }
  function setLang(l) {
    lang = l === 'en' ? 'en' : 'ja';
    document.documentElement.lang = lang;
    document.documentElement.setAttribute('data-ui', lang);
    var bs = document.querySelectorAll('[data-lang]');
    for (var i = 0; i < bs.length; i++) bs[i].setAttribute('aria-pressed', String(bs[i].getAttribute('data-lang') === lang));
    apply(document);
    try { localStorage.setItem('posekit.lang', lang); } catch (e) { /* file:// may refuse storage */ }
  }
  function initial() {
    try {
      var saved = localStorage.getItem('posekit.lang');
      if (saved === 'ja' || saved === 'en') return saved;
    } catch (e) { /* no storage */ }
    var nav = (navigator.languages && navigator.languages[0]) || navigator.language || 'ja';
    return /^ja\b/i.test(nav) ? 'ja' : 'en';
  }
  /* The engine's progress words (pk_progress in engine/ops and
   * engine/format; a job's parts, engine/job/job_run.c) in the page's
   * language: the known ones in Japanese, anything else as the engine
   * says it. */
  var PROGRESS = {
    'reading': '読み込み', 'writing': '書き出し', 'evaluating': '計算', 'fitting': '当てはめ',
    'smoothing': '平滑化', 'reducing': 'キー削減', 'baking': 'ベイク',
    'sizing: playing both models': 'サイジング：両方のモデルを再生', 'sizing: the body': 'サイジング：体',
    'sizing: contacts': 'サイジング：手の接触', 'sizing: keeping out of the body': 'サイジング：体へのめり込みを避ける',
    'sizing: twist': 'サイジング：捩り', 'sizing: fitting keys': 'サイジング：キーの当てはめ',
    'sizing: measuring': 'サイジング：測定'
  };
  var PARTS = { input: '入力', rules: 'ルール', output: '出力' };
  function progressText(what) {
    if (lang === 'en' || !what) return what;
    if (PROGRESS[what]) return PROGRESS[what];
    var m = /^step (\d+) of (\d+), ([^:]*)(?:: (.*))?$/.exec(what);
    if (m) return '手順 ' + m[1] + '/' + m[2] + '、' + m[3] + (m[4] ? '：' + progressText(m[4]) : '');
    m = /^(input|rules|output) '(.*?)'(?:: (.*))?$/.exec(what);
    if (m) return PARTS[m[1]] + '「' + m[2] + '」' + (m[3] ? '：' + progressText(m[3]) : '');
    return what;
  }
  window.PK_I18N = { t: t, apply: apply, setLang: setLang, initial: initial, lang: function () { return lang; }, strings: S,
    progress: progressText };
})();
