-- Menu icons the family's consoles can show (issue 40): a menu's `source` carries an icon class
-- of the family's iconfont (contract §7.1, `iconfont iconicon_principal`), which those consoles
-- render as a class. Meterline's console reads each class back to the icon it showed before
-- (MENU_ICON_CLASSES in packages/contracts/src/menu-icons.ts: one class per icon, this same table).
-- Screens (category 1) and top menus of every tenant; buttons keep their icon keywords (§7.1).
with icon (name, cls) as (values
  ('alert', 'iconfont icon-cuowutishitubiao'),
  ('apartment', 'iconfont iconicon_subordinate'),
  ('api', 'iconfont icon-debug'),
  ('appstore', 'iconfont icon-caidan'),
  ('audit', 'iconfont iconicon_task_done'),
  ('bar-chart', 'iconfont icon-tubiao'),
  ('bars', 'iconfont icon-caidanguanli'),
  ('bell', 'iconfont iconicon_ding'),
  ('book', 'iconfont iconicon_doc'),
  ('bug', 'iconfont icon-bug'),
  ('calendar', 'iconfont iconicon_work'),
  ('cloud', 'iconfont iconicon_cloud_history'),
  ('cluster', 'iconfont iconicon_affiliations_li'),
  ('code', 'iconfont iconicon_compile'),
  ('control', 'iconfont iconicon_dispose'),
  ('dashboard', 'iconfont icon-shujuzhanshi2'),
  ('database', 'iconfont iconicon_cspace'),
  ('deployment-unit', 'iconfont iconicon_share'),
  ('desktop', 'iconfont iconicon_airplay'),
  ('dollar', 'iconfont iconicon_coinpurse_line'),
  ('environment', 'iconfont iconicon_GPS'),
  ('experiment', 'iconfont iconicon_glass'),
  ('file', 'iconfont iconicon_savememo'),
  ('file-text', 'iconfont iconicon_details'),
  ('global', 'iconfont iconicon_discovery'),
  ('home', 'iconfont icon-huanyingye'),
  ('idcard', 'iconfont iconicon_namecard'),
  ('line-chart', 'iconfont icon-dongtai'),
  ('link', 'iconfont iconicon_exchange'),
  ('lock', 'iconfont icon-quanxian'),
  ('login', 'iconfont icon-mima'),
  ('menu', 'iconfont icon-navicon'),
  ('message', 'iconfont iconicon_message'),
  ('minus', 'iconfont iconicon_roundreduce'),
  ('monitor', 'iconfont icon-iconset0265'),
  ('notification', 'iconfont iconicon_notice'),
  ('ordered-list', 'iconfont iconicon_task'),
  ('paper-clip', 'iconfont iconicon_photo'),
  ('pie-chart', 'iconfont icon-liuliangyunpingtaitubiao08'),
  ('plus', 'iconfont iconicon_roundadd'),
  ('read', 'iconfont iconicon_addresslist'),
  ('safety', 'iconfont iconicon_safety'),
  ('setting', 'iconfont iconicon_setting'),
  ('team', 'iconfont iconicon_group'),
  ('thunderbolt', 'iconfont iconicon_star'),
  ('tool', 'iconfont icon-wxbgongju'),
  ('user', 'iconfont iconicon_principal'),
  ('wallet', 'iconfont iconicon_redpacket'),
  ('wechat', 'iconfont iconicon_wechat')
),
-- One table feeds both updates: the screens' update is a data-modifying part of the same statement.
screens as (
  update sys_menu m set source = icon.cls from icon where m.category = 1 and m.source = icon.name returning m.id
)
update sys_top_menu t set source = icon.cls from icon where t.source = icon.name;
