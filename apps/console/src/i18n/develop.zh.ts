/** Strings of the 数据源 and 代码生成 screens. */
export const developZh = {
  "menu.tool": "研发工具",
  "menu.code": "代码生成",
  "menu.datasource": "数据源管理",
  "datasource.test": "测试连接",
  "datasource.connected": "连接成功 (PostgreSQL {version})",
  "datasource.own": "本服务数据库",
  "datasource.urlHint":
    "如 jdbc:postgresql://主机:5432/数据库; 留空即本服务数据库。只能连接管理员在 DATASOURCE_ALLOWED_HOSTS 中放行的主机",
  "code.generate": "生成代码",
  "code.copy": "复制",
  "code.generated": "已生成, 请把下载的 zip 解压到代码仓库根目录",
  "code.copied": "已复制",
  "code.columnsHint": "以逗号分隔的列名, 留空表示全部列",
  "code.resourceHint": "留空则由表名 (去掉表前缀) 得出, 不能与已有资源重名",
};
