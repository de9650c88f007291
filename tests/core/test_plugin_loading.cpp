// Plugins are found at run time; anything that is not a valid method plugin is reported with its reason.
#include <QtTest>

#include "method/method_plugin.h"
#include "method/method_registry.h"

using namespace milab;

class TestPluginLoading : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void loadsTheBuiltPlugins() {
    MethodRegistry registry;
    registry.loadDefault();
    QVERIFY2(registry.errors().isEmpty(),
             qPrintable(registry.errors().isEmpty() ? QString() : registry.errors()[0].reason));
    for (const char* id : {"demi", "infonce", "js", "local-nce", "mine", "nwj", "smile"})
      QVERIFY2(registry.ids().contains(id), id);
    const MethodInfo demi = registry.find("demi")->info();
    QVERIFY(demi.needsSubview);
    QVERIFY(findSpec(demi.params, "K"));
    QCOMPARE(registry.find("demi")->ceilings({{"K", 128}})[0].value, 2 * std::log(64.0));
    QCOMPARE(registry.find("infonce")->ceilings({{"K", 128}})[0].value, std::log(128.0));
  }

  void reportsBrokenPluginsWithoutCrashing() {
    QTemporaryDir dir;
    // 1. a file that looks like a library but is not one
    QFile garbage(dir.filePath("libgarbage.so"));
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write("this is not an ELF file");
    garbage.close();
    // 2. a real Qt plugin built against an older interface version
    QVERIFY(QFile::copy(QStringLiteral(MILAB_TEST_PLUGIN_DIR "/libmilab_broken_iid.so"),
                        dir.filePath("libmilab_broken_iid.so")));
    // 3. a real method plugin, which must still load beside them
    QVERIFY(QFile::copy(qEnvironmentVariable("MILAB_PLUGIN_PATH") + "/libmilab_infonce.so",
                        dir.filePath("libmilab_infonce.so")));

    MethodRegistry registry;
    QCOMPARE(registry.loadDirectory(dir.path()), 1);
    QCOMPARE(registry.ids(), QStringList({"infonce"}));
    QCOMPARE(registry.errors().size(), 2);
    for (const PluginLoadError& e : registry.errors()) {
      QVERIFY(!e.reason.isEmpty());
      if (e.file.endsWith("libmilab_broken_iid.so"))
        QCOMPARE(e.reason, QString("interface org.milab.MethodPlugin/0, expected " MILAB_METHOD_PLUGIN_IID));
      else
        QVERIFY(e.file.endsWith("libgarbage.so"));
    }
  }

  void refusesDuplicateIds() {
    MethodRegistry registry;
    registry.loadDefault();
    const QStringList once = registry.ids();
    registry.loadDefault();
    QCOMPARE(registry.ids(), once);
    QCOMPARE(registry.errors().size(), once.size());
    QVERIFY(registry.errors()[0].reason.contains("already loaded"));
  }
};

QTEST_GUILESS_MAIN(TestPluginLoading)
#include "test_plugin_loading.moc"
